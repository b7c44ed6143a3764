"use client";

import { useEffect, useState } from "react";
import { useConnect, useConnection, useConnectors, useDisconnect } from "wagmi";
import { shortAddress } from "@/lib/client/chain-info";
import { walletErrorMessage } from "./messages";

// Connect / disconnect a browser wallet. Lists the available connectors (the injected
// wallet, wallets announced via EIP-6963, and the e2e test wallet when enabled).

const connectorLabel = (c: { id: string; name: string; type: string }) =>
  c.type === "mock" ? "test wallet" : c.id === "injected" ? "browser wallet" : c.name;

export function ConnectButton() {
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const [error, setError] = useState<string | null>(null);
  // Connectors differ between the server render and the browser: list them once mounted.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);

  if (!mounted || connection.status === "reconnecting")
    return (
      <span
        className="skeleton"
        style={{ display: "inline-block", width: "10rem", height: "2.2rem" }}
      />
    );

  if (connection.status === "connected")
    return (
      <div className="row" data-testid="wallet-connected">
        <span className="badge ok" title={connection.address}>
          Connected · <span className="mono">{shortAddress(connection.address)}</span>
        </span>
        <button
          type="button"
          className="btn small ghost"
          onClick={() => disconnect.mutate()}
          disabled={disconnect.isPending}
        >
          Disconnect
        </button>
      </div>
    );

  return (
    <div className="stack" style={{ gap: "0.5rem" }}>
      <div className="row">
        {connectors.map((c) => (
          <button
            key={c.uid}
            type="button"
            className="btn secondary"
            disabled={connect.isPending}
            onClick={() => {
              setError(null);
              connect.mutate(
                { connector: c },
                { onError: (err) => setError(walletErrorMessage(err)) },
              );
            }}
          >
            {connect.isPending && connect.variables?.connector === c
              ? "Connecting…"
              : `Connect ${connectorLabel(c)}`}
          </button>
        ))}
      </div>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
