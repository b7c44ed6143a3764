"use client";

import Link from "next/link";
import { useState } from "react";
import type { Address } from "viem";
import { apiFetch } from "@/lib/client/api";
import { txUrl } from "@/lib/client/chain-info";
import { walletErrorMessage } from "./messages";
import { useRefreshUsdcBalances } from "./usdc-balance";
import { useChainInfo } from "./wallet-provider";

// "Get 2.00 test USDC": POST /api/faucet/drip for an address, with its progress and a link
// to the transaction. The faucet gives once per address and once per account; a repeat
// shows the first drip.

type Drip = {
  funded: boolean;
  amount: string;
  txHash: string;
  reason?: "already_funded";
  status?: string;
};

type State =
  | { step: "idle" }
  | { step: "sending" }
  | { step: "done"; drip: Drip }
  | { step: "error"; message: string };

export function FaucetButton({
  address,
  onFunded,
}: {
  address: Address | null | undefined;
  onFunded?: (drip: Drip) => void;
}) {
  const info = useChainInfo();
  const refreshBalances = useRefreshUsdcBalances();
  const [state, setState] = useState<State>({ step: "idle" });

  if (!info.testnet) return <p className="small muted">The faucet only runs on testnets.</p>;

  async function drip() {
    if (!address) return;
    setState({ step: "sending" });
    try {
      const result = await apiFetch<Drip>("/api/faucet/drip", { body: { address } });
      setState({ step: "done", drip: result });
      await refreshBalances();
      onFunded?.(result);
    } catch (err) {
      setState({ step: "error", message: walletErrorMessage(err) });
    }
  }

  return (
    <div className="stack" style={{ gap: "0.5rem" }} data-testid="faucet">
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={drip}
          disabled={!address || state.step === "sending" || state.step === "done"}
        >
          {state.step === "sending"
            ? "Sending 2.00 USDC…"
            : state.step === "done"
              ? "Test USDC received"
              : "Get 2.00 test USDC"}
        </button>
        {!address && <span className="small muted">Connect or link a wallet first.</span>}
      </div>
      {state.step === "sending" && (
        <p className="small muted" role="status">
          The treasury is sending the transfer and waiting for it to be mined.
        </p>
      )}
      {state.step === "done" && (
        <div
          className={state.drip.funded ? "alert ok" : "alert"}
          role="status"
          data-testid="faucet-result"
        >
          {state.drip.funded
            ? `Sent ${state.drip.amount} USDC${state.drip.status === "submitted" ? " (confirming…)" : ""}.`
            : `Already funded: the faucet gives ${state.drip.amount} USDC once per wallet and per account.`}{" "}
          <Link href={txUrl(info, state.drip.txHash)} data-testid="faucet-tx-link">
            View transaction
          </Link>
        </div>
      )}
      {state.step === "error" && (
        <div className="alert error" role="alert">
          {state.message}{" "}
          <button type="button" className="btn small secondary" onClick={drip}>
            Try again
          </button>
        </div>
      )}
    </div>
  );
}
