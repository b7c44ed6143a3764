"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import type { DealJson } from "./format";
import type { DealListPage } from "./list-page";

export type { DealListPage };

// A deal list from GET /api/deals through TanStack Query: the server-rendered first page as
// initial data, then filters, search, sort and "load more" (keyset: the API's nextCursor).
// The filters are also applied to what came back, so the list is right whether or not the
// server already applied them (older servers ignore unknown query parameters).

export type DealFilters = {
  status: string;
  platform: string;
  search: string;
  sort: "newest" | "oldest" | "budget";
};

export const noFilters: DealFilters = { status: "", platform: "", search: "", sort: "newest" };

export const isFiltered = (f: DealFilters) =>
  f.status !== "" || f.platform !== "" || f.search.trim() !== "" || f.sort !== "newest";

/** The API path of one page of a list. */
export function dealListPath(scope: "mine" | "open", f: DealFilters, cursor: string | null) {
  const params = new URLSearchParams();
  if (scope === "open") params.set("open", "1");
  if (f.status) params.set("status", f.status);
  if (f.platform) params.set("platform", f.platform);
  if (f.search.trim()) params.set("search", f.search.trim());
  if (f.sort !== "newest") params.set("sort", f.sort);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `/api/deals?${query}` : "/api/deals";
}

/** The filters applied in the browser to the loaded deals (see the note above). */
export function applyFilters(deals: DealJson[], f: DealFilters): DealJson[] {
  const needle = f.search.trim().toLowerCase();
  const shown = deals.filter(
    (d) =>
      (!f.status || d.status === f.status) &&
      (!f.platform || d.platform === f.platform) &&
      (!needle ||
        d.title.toLowerCase().includes(needle) ||
        d.description.toLowerCase().includes(needle)),
  );
  if (f.sort === "oldest") shown.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  else if (f.sort === "budget") shown.sort((a, b) => b.budget - a.budget);
  else shown.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return shown;
}

export function useDealList(
  scope: "mine" | "open",
  filters: DealFilters,
  initial: DealListPage | undefined,
) {
  const query = useInfiniteQuery({
    queryKey: ["deals", scope, filters],
    queryFn: ({ pageParam, signal }) =>
      apiFetch<DealListPage>(dealListPath(scope, filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    // The server rendered the unfiltered first page: no request until something changes.
    initialData:
      initial && !isFiltered(filters) ? { pages: [initial], pageParams: [null] } : undefined,
    refetchOnWindowFocus: true,
  });
  const loaded = query.data?.pages.flatMap((p) => p.deals) ?? [];
  // A deal may move between pages while more load (keyset on a changing list): once each.
  const unique = [...new Map(loaded.map((d) => [d.id, d])).values()];
  return { ...query, deals: applyFilters(unique, filters) };
}
