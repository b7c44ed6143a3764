"use client";

import { useQuery } from "@tanstack/react-query";
import { Suspense, use } from "react";
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

/** `seed`: the answer the server read with the page, when it could (initial data). */
export function useReputation(wallet: string | null | undefined, seed?: ReputationJson | null) {
  return useQuery({
    queryKey: ["reputation", wallet?.toLowerCase()],
    queryFn: () => apiFetch<ReputationJson>(`/api/reputation/${wallet}`),
    initialData: seed ?? undefined,
    enabled: Boolean(wallet),
    staleTime: 30_000,
  });
}

/**
 * `seed`: the server's reading streamed with the page (the deal page's, a chain read it
 * waited for only briefly); the badge shows its skeleton until it arrives, and fetches
 * itself when it is null or absent.
 */
export function ReputationBadge({
  wallet,
  seed,
}: {
  wallet: string | null | undefined;
  seed?: Promise<ReputationJson | null>;
}) {
  return (
    <Suspense fallback={<BadgeSkeleton />}>
      <Badge wallet={wallet} seed={seed} />
    </Suspense>
  );
}

const BadgeSkeleton = () => (
  <span
    className="skeleton"
    style={{ display: "inline-block", width: "8rem", height: "1.3rem" }}
    role="status"
    aria-label="Loading reputation"
  />
);

function Badge({
  wallet,
  seed,
}: {
  wallet: string | null | undefined;
  seed?: Promise<ReputationJson | null>;
}) {
  const rep = useReputation(wallet, seed ? use(seed) : null);
  if (!wallet) return <span className="badge neutral plain">No wallet</span>;
  if (rep.isPending) return <BadgeSkeleton />;
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
