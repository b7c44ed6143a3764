"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { scorePercent } from "./format";

// A wallet's on-chain reputation (GET /api/reputation/:wallet) as a compact badge: the mean
// verification score of its settled milestones and how many there are.

export type ReputationJson = {
  wallet: string;
  chainId: number;
  registry: string;
  count: number;
  score: number | null;
};

export function useReputation(wallet: string | null | undefined) {
  return useQuery({
    queryKey: ["reputation", wallet?.toLowerCase()],
    queryFn: () => apiFetch<ReputationJson>(`/api/reputation/${wallet}`),
    enabled: Boolean(wallet),
    staleTime: 30_000,
  });
}

export function ReputationBadge({ wallet }: { wallet: string | null | undefined }) {
  const rep = useReputation(wallet);
  if (!wallet) return <span className="badge neutral plain">No wallet</span>;
  if (rep.isPending)
    return (
      <span
        className="skeleton"
        style={{ display: "inline-block", width: "8rem", height: "1.3rem" }}
        role="status"
        aria-label="Loading reputation"
      />
    );
  if (rep.isError)
    return (
      <span className="badge neutral plain" title={rep.error.message}>
        Reputation unavailable
      </span>
    );
  const { count, score } = rep.data;
  if (count === 0 || score === null)
    return (
      <span className="badge neutral plain" data-testid="reputation-badge">
        No settled milestones yet
      </span>
    );
  const tone = score >= 0.8 ? "badge ok plain" : score >= 0.5 ? "badge plain" : "badge warn plain";
  return (
    <span
      className={tone}
      data-testid="reputation-badge"
      title={`Mean verification score of ${count} settled milestone${count === 1 ? "" : "s"}, recorded on-chain`}
    >
      ★ {scorePercent(score)} · {count} milestone{count === 1 ? "" : "s"}
    </span>
  );
}
