"use client";

import { createContext, type ReactNode, useContext } from "react";
import type { DealPageSeed } from "@/lib/deals/page-seed";

// The deal page's server-read panel data (lib/deals/page-seed.ts) for the panels deep in the
// page: the activity log, the evidence cards and the message thread start from it instead of an empty "Loading",
// and still fetch for live updates (TanStack Query); a panel the server did not seed fetches
// as before.

const SeedContext = createContext<DealPageSeed>({
  events: null,
  evidence: {},
  messages: null,
  relay: null,
});

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
