"use client";

import { useState } from "react";
import { isAddressEqual } from "viem";
import { useConnection, useSignMessage } from "wagmi";
import { useSession } from "@/components/session-provider";
import { apiFetch } from "@/lib/client/api";
import { walletErrorMessage } from "./messages";
import { useChainInfo } from "./wallet-provider";

// Links the connected wallet to the signed-in account: GET /api/auth/wallet/nonce (a
// Sign-In with Ethereum message for this address) → the wallet signs it → POST
// /api/auth/wallet. Payouts only go to a wallet proven this way.

type Step = "idle" | "preparing" | "signing" | "linking" | "error";

const stepText: Record<Step, string> = {
  idle: "",
  preparing: "Preparing the message…",
  signing: "Sign the message in your wallet…",
  linking: "Linking…",
  error: "",
};

export function LinkWalletButton({ onLinked }: { onLinked?: (address: string) => void }) {
  const { user, refresh } = useSession();
  const info = useChainInfo();
  const connection = useConnection();
  const signMessage = useSignMessage();
  const [step, setStep] = useState<Step>("idle");
  const [error, setError] = useState<string | null>(null);

  if (!user || connection.status !== "connected") return null;
  const address = connection.address;
  if (user.walletAddress && isAddressEqual(user.walletAddress as `0x${string}`, address))
    return null; // already the linked wallet

  async function link() {
    setError(null);
    try {
      setStep("preparing");
      const issued = await apiFetch<{ message?: string }>(
        `/api/auth/wallet/nonce?address=${address}&chainId=${info.chainId}`,
      );
      if (!issued.message) throw new Error("The server did not return a message to sign.");
      setStep("signing");
      const signature = await signMessage.mutateAsync({
        message: issued.message,
        account: address,
      });
      setStep("linking");
      await apiFetch("/api/auth/wallet", { body: { address, message: issued.message, signature } });
      await refresh();
      setStep("idle");
      onLinked?.(address);
    } catch (err) {
      setError(walletErrorMessage(err));
      setStep("error");
    }
  }

  const busy = step === "preparing" || step === "signing" || step === "linking";
  return (
    <div className="stack" style={{ gap: "0.5rem" }} data-testid="link-wallet">
      <p className="small muted" style={{ margin: 0 }}>
        {user.walletAddress
          ? "This is not your payout wallet. Linking it replaces the current one for future payouts."
          : "Link this wallet to receive payouts: you sign a one-time message, no transaction and no gas."}
      </p>
      <div className="row">
        <button type="button" className="btn" onClick={link} disabled={busy}>
          {busy
            ? stepText[step]
            : user.walletAddress
              ? "Use this wallet for payouts"
              : "Link this wallet"}
        </button>
      </div>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
