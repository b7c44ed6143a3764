"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { type Address, erc20Abi } from "viem";
import { useReadContract } from "wagmi";
import { usdcText } from "./format";
import { useChainInfo } from "./wallet-provider";

// An address's USDC balance, read from the chain in the browser (balanceOf).

export function useUsdcBalance(address: Address | null | undefined) {
  const info = useChainInfo();
  return useReadContract({
    address: info.usdc ?? undefined,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: address ? [address] : undefined,
    query: { enabled: Boolean(address && info.usdc), refetchInterval: 15_000 },
  });
}

/** Re-reads every USDC balance on the page (after a drip or a payout). */
export function useRefreshUsdcBalances() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.invalidateQueries({
        predicate: (q) =>
          q.queryKey[0] === "readContract" &&
          (q.queryKey[1] as { functionName?: string } | undefined)?.functionName === "balanceOf",
      }),
    [queryClient],
  );
}

export function UsdcBalance({ address }: { address: Address | null | undefined }) {
  const info = useChainInfo();
  const balance = useUsdcBalance(address);
  if (!info.usdc) return <span className="muted">USDC is not configured on this chain</span>;
  if (!address) return <span className="muted">—</span>;
  if (balance.isPending)
    return (
      <span
        className="skeleton"
        style={{ display: "inline-block", width: "7rem", height: "1.6rem" }}
      />
    );
  if (balance.isError)
    return (
      <span className="field-error" role="alert">
        Could not read the balance.{" "}
        <button type="button" className="btn small ghost" onClick={() => void balance.refetch()}>
          Retry
        </button>
      </span>
    );
  return <span data-testid="usdc-balance">{usdcText(balance.data)}</span>;
}
