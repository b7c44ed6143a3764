"use client";

import { createContext, type ReactNode, use, useContext } from "react";
import { type DealPageSeed, noDealPageSeed } from "@/lib/deals/page-seed";

// The deal page's server-read panel data (lib/deals/page-seed.ts) for the panels deep in the
// page. Each part is a promise streamed with the HTML: a panel reads it with useSeed, which
// suspends until it arrives (the panel's <Suspense> shows its skeleton meanwhile), starts
// from it instead of an empty "Loading", and still fetches for live updates (TanStack Query).
// A part the server did not start, or that resolved to null, leaves the panel to fetch as
// before; so does any page without the provider.

const SeedContext = createContext<DealPageSeed>(noDealPageSeed());

export function DealPageSeedProvider({
  seed,
  children,
}: {
  seed: DealPageSeed;
  children: ReactNode;
}) {
  return <SeedContext.Provider value={seed}>{children}</SeedContext.Provider>;
}

export const useDealPageSeed = () => useContext(SeedContext);

/** A streamed part's value (suspending until it arrives), or null when there is none. */
export function useSeed<T>(part: Promise<T | null> | null | undefined): T | null {
  return part ? use(part) : null;
}
