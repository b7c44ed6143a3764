import type { DealJson } from "./format";

// One page of a deal list as the dashboards hold it. GET /api/deals answers
// { deals, nextCursor? }; lib's listDeals returns the deals (and, with keyset pagination,
// the cursor of the next page): firstPage takes either shape.

export type DealListPage = { deals: DealJson[]; nextCursor?: string | null };

export function firstPage(result: DealJson[] | DealListPage): DealListPage {
  return Array.isArray(result)
    ? { deals: result, nextCursor: null }
    : { deals: result.deals, nextCursor: result.nextCursor ?? null };
}
