"use client";

import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ApiError, apiFetch } from "@/lib/client/api";
import type { DealJson } from "./format";
import type { DepositJson, FundingJson } from "./funding/types";
import type { RelayStatus } from "./settle-panel";

// The deal page's reads, through TanStack Query (mounted by app/deals/layout.tsx): one cache
// entry per resource, refetched when the tab comes back into view, polled while something
// is in flight, and invalidated by the actions that change it.

/** Errors as the pages show them: always an ApiError (a thrown non-API error becomes one). */
export const asApiError = (err: unknown): ApiError =>
  err instanceof ApiError ? err : new ApiError("unknown", "Something went wrong.", 0);

export const dealQueryKey = (id: string): QueryKey => ["deal", id];

/**
 * One deal with its milestones and review state. `initial` is what the server rendered the
 * page with; while `inFlight` says so of the latest copy, it is polled every 3 s.
 */
export function useDeal(id: string, initial: DealJson, inFlight: (deal: DealJson) => boolean) {
  const query = useQuery({
    queryKey: dealQueryKey(id),
    queryFn: ({ signal }) =>
      apiFetch<{ deal: DealJson }>(`/api/deals/${encodeURIComponent(id)}`, { signal }),
    initialData: { deal: initial },
    refetchInterval: (q) => (q.state.data && inFlight(q.state.data.deal) ? 3000 : false),
    refetchOnWindowFocus: true,
  });
  const queryClient = useQueryClient();
  // The cache outlives the page (it belongs to the /deals layout), and initialData only
  // fills an empty cache: a newer server render — coming back from the edit page, or a
  // router.refresh() — must replace the copy held from the last visit.
  useEffect(() => {
    queryClient.setQueryData(dealQueryKey(id), { deal: initial });
  }, [queryClient, id, initial]);
  return {
    deal: query.data.deal,
    error: query.error ? asApiError(query.error) : null,
    /** Reads the deal again; resolves once the fresh copy is in. */
    reload: () => queryClient.invalidateQueries({ queryKey: dealQueryKey(id) }),
  };
}

/**
 * The relayer's status (brands choose "pay without gas" with it); null while unknown. `seed`:
 * the server's answer read with the page (lib/deals/page-seed.ts).
 */
export function useRelayStatus(enabled: boolean, seed?: RelayStatus | null): RelayStatus | null {
  const query = useQuery({
    queryKey: ["relay-status"],
    initialData: seed ?? undefined,
    queryFn: ({ signal }) => apiFetch<RelayStatus>("/api/relay/status", { signal }),
    enabled,
    staleTime: 60_000,
  });
  return query.data ?? null;
}

export const fundingQueryKey = (dealId: string): QueryKey => ["funding", dealId];

/** While a deposit is on its way, the funding state is read again this often. */
export const DEPOSIT_POLL_MS = 4000;

/**
 * What the brand funds an unfunded deal with: the escrow terms and, once asked for, the
 * deposit's instructions and live status. `seed`: the server's answer read with the page
 * (lib/deals/page-seed.ts), used for the deal and terms version it was read with.
 */
export function useFunding(
  deal: Pick<DealJson, "id" | "termsVersion">,
  seed?: { dealId: string; termsVersion: number; funding: FundingJson } | null,
) {
  return useQuery({
    // The terms follow the deal's: an edit (a new termsVersion) reads them afresh.
    queryKey: [...fundingQueryKey(deal.id), deal.termsVersion],
    initialData:
      seed?.dealId === deal.id && seed.termsVersion === deal.termsVersion
        ? { funding: seed.funding }
        : undefined,
    staleTime: 10_000,
    queryFn: ({ signal }) =>
      apiFetch<{ funding: FundingJson }>(`/api/deals/${encodeURIComponent(deal.id)}/funding`, {
        signal,
      }),
    // While money is on its way, and until the funded deal opens (this is read only while
    // the deal is unfunded: the panel that reads it goes away then).
    refetchInterval: (q) => {
      const status = q.state.data?.funding.deposit?.status;
      return status === "awaiting" || status === "underpaid" || status === "funded"
        ? DEPOSIT_POLL_MS
        : false;
    },
    refetchOnWindowFocus: true,
  });
}

/**
 * POST /api/deals/:id/funding/deposit: the deal's deposit instructions for the refund address
 * the brand names. The answer goes straight into the funding state, which then polls.
 */
export function useRequestDeposit(dealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (refundAddress: string) =>
      apiFetch<{ deposit: DepositJson }>(
        `/api/deals/${encodeURIComponent(dealId)}/funding/deposit`,
        { body: { refundAddress } },
      ),
    onSuccess: ({ deposit }) => {
      queryClient.setQueriesData<{ funding: FundingJson }>(
        { queryKey: fundingQueryKey(dealId) },
        (old) => (old ? { funding: { ...old.funding, deposit } } : old),
      );
      return queryClient.invalidateQueries({ queryKey: fundingQueryKey(dealId) });
    },
  });
}

/**
 * "Check for my payment": POST /api/deals/:id/funding looks at the deposit address (and the
 * escrow) now instead of at the next scheduled check. Resolves with the deal once funded, or
 * null while the money is not all there (the funding state is read again either way).
 */
export function useCheckDeposit(dealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<DealJson | null> => {
      try {
        const res = await apiFetch<{ deal: DealJson }>(
          `/api/deals/${encodeURIComponent(dealId)}/funding`,
          { body: {} },
        );
        return res.deal;
      } catch (err) {
        if (err instanceof ApiError && err.code === "not_funded") return null;
        throw err;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: fundingQueryKey(dealId) }),
  });
}
