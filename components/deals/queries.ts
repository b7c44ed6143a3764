"use client";

import { type QueryKey, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ApiError, apiFetch } from "@/lib/client/api";
import type { DealJson } from "./format";
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

/** The relayer's status (brands choose "pay without gas" with it); null while unknown. */
export function useRelayStatus(enabled: boolean): RelayStatus | null {
  const query = useQuery({
    queryKey: ["relay-status"],
    queryFn: ({ signal }) => apiFetch<RelayStatus>("/api/relay/status", { signal }),
    enabled,
    staleTime: 60_000,
  });
  return query.data ?? null;
}
