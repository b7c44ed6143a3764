"use client";

import { useState } from "react";
import { useConnection, useSignMessage } from "wagmi";
import { ConnectButton } from "@/components/wallet/connect-button";
import { walletErrorMessage } from "@/components/wallet/messages";
import { useChainInfo } from "@/components/wallet/wallet-provider";
import type { ProfileType } from "@/lib/client/api";
import { postToAuth, SignInError } from "@/lib/client/web-sign-in";

// "Sign in with Ethereum" on /sign-in: connect a wallet, ask for a message to sign (GET
// /auth/siwe/nonce: a nonce for this browser), sign it (no transaction, no gas), and post it
// to next-auth's credentials callback (POST /auth/callback/siwe), which checks it as the
// wallet-link code does and sets the session cookie.

export function SiweSignIn({
  role,
  callbackUrl,
  onError,
}: {
  role: ProfileType;
  callbackUrl: string;
  onError: (code: string | null, message?: string) => void;
}) {
  const info = useChainInfo();
  const connection = useConnection();
  const signMessage = useSignMessage();
  const [busy, setBusy] = useState(false);

  async function signIn() {
    if (connection.status !== "connected") return;
    const address = connection.address;
    setBusy(true);
    onError(null);
    try {
      const res = await fetch(`/auth/siwe/nonce?address=${address}&chainId=${info.chainId}`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      const { message } = (await res.json()) as { message?: string };
      if (!res.ok || !message) throw new SignInError("unavailable");
      const signature = await signMessage.mutateAsync({ message, account: address });
      const next = await postToAuth("callback/siwe", { message, signature, role, callbackUrl });
      window.location.assign(next.toString());
    } catch (err) {
      if (err instanceof SignInError) onError(err.code);
      else onError("wallet", walletErrorMessage(err));
      setBusy(false);
    }
  }

  return (
    <div className="stack" data-testid="siwe-sign-in">
      <ConnectButton />
      {connection.status === "connected" && (
        <div className="row">
          <button type="button" className="btn secondary" onClick={signIn} disabled={busy}>
            {busy ? "Sign the message in your wallet…" : "Sign in with Ethereum"}
          </button>
        </div>
      )}
      <p className="muted small">
        For creators whose identity is their wallet: you sign a one-time message, no transaction and
        no gas. Payouts go to this wallet.
      </p>
    </div>
  );
}
