"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Address } from "viem";
import { ApiError, apiFetch } from "@/lib/client/api";
import { txUrl } from "@/lib/client/chain-info";
import { walletErrorMessage } from "./messages";
import { useChainInfo } from "./wallet-provider";

// The local chain only: "Get test USDC" mints 1,000 test USDC (and a little gas) to an
// address through POST /api/faucet/test-usdc, so a brand can fund an escrow with one click.
// Renders nothing on other chains.

type Minted = {
  address: string;
  amount: string;
  txHash: string;
  explorerUrl: string | null;
  /** Not `confirmed` when the chain was slow (202): the mint is on its way. */
  status: string;
};

export function TestUsdcButton({
  address,
  primary = false,
  onMinted,
}: {
  address: Address | null | undefined;
  primary?: boolean;
  onMinted?: (minted: Minted) => void;
}) {
  const info = useChainInfo();
  const queryClient = useQueryClient();
  const [state, setState] = useState<
    | { step: "idle" }
    | { step: "sending" }
    | { step: "done"; minted: Minted }
    | { step: "error"; message: string }
  >({ step: "idle" });

  if (info.name !== "local") return null;

  async function mint() {
    if (!address) return;
    setState({ step: "sending" });
    try {
      const minted = await apiFetch<Minted>("/api/faucet/test-usdc", { body: { address } });
      // Balances (USDC and gas) on the page are read again.
      await queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[0] === "readContract" || q.queryKey[0] === "balance",
      });
      setState({ step: "done", minted });
      onMinted?.(minted);
    } catch (err) {
      setState({
        step: "error",
        message:
          err instanceof ApiError && err.code === "faucet_disabled"
            ? "Test USDC is only minted on the local chain."
            : walletErrorMessage(err),
      });
    }
  }

  return (
    <div className="stack tight" data-testid="test-usdc">
      <div className="row tight">
        <button
          type="button"
          className={primary ? "btn" : "btn secondary"}
          onClick={mint}
          disabled={!address || state.step === "sending"}
        >
          {state.step === "sending" ? "Minting 1,000 test USDC…" : "Get test USDC"}
        </button>
        {state.step === "idle" && (
          <span className="muted small">1,000 test USDC and gas, local chain only</span>
        )}
      </div>
      {state.step === "done" && (
        <span className="small ok-text" role="status" data-testid="test-usdc-result">
          {state.minted.status === "confirmed" ? "Received" : "Sent (on its way)"}{" "}
          {Number(state.minted.amount).toLocaleString("en-US", { minimumFractionDigits: 2 })} test
          USDC.{" "}
          <a href={state.minted.explorerUrl ?? txUrl(info, state.minted.txHash)}>
            View transaction
          </a>
        </span>
      )}
      {state.step === "error" && (
        <span className="field-error" role="alert">
          {state.message}
        </span>
      )}
    </div>
  );
}
