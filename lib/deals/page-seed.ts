import type { RelayStatus } from "@/lib/chain/relay";
import type { Reputation } from "@/lib/chain/reputation";
import type { FundingTermsAnswer } from "@/lib/deals/funding";
import type { MessagePage } from "@/lib/deals/messages";
import type { DraftJson } from "@/lib/drafts/schemas";
import type { DealEventJson } from "@/lib/events/events";
import type { BonusJson } from "@/lib/settle/bonuses";
import type { EvidenceJson } from "@/lib/verify/evidence/read";

// What app/deals/[id]/page.tsx reads on the server together with the deal, so that the deal
// page's panels render with the HTML instead of each fetching after it (load-deal-seed.ts
// reads it; components/deals/page-seed.tsx hands it to the panels). The page does not wait
// for these: each is a promise the server streams in (React Suspense), so the title and the
// milestones come first and each panel shows a skeleton until its part arrives. A part that
// resolves to null was not read (not a party, a failed read, the chain too slow): its panel
// fetches it as before.

export type DealPageSeed = {
  /** The first page of GET /api/deals/:id/events (parties only). */
  events: Promise<{ events: DealEventJson[]; nextCursor: string | null } | null> | null;
  /** GET /api/milestones/:id/evidence?revision=N's items, by evidenceSeedKey(id, N). */
  evidence: Promise<Record<string, EvidenceJson[]>> | null;
  /** GET /api/deals/:id/bonuses?limit=100 (parties only). */
  bonuses: Promise<{ bonuses: BonusJson[]; nextCursor: string | null } | null> | null;
  /** GET /api/milestones/:id/drafts?limit=20 of each milestone, by id (parties of a taken deal). */
  drafts: Promise<Record<string, { drafts: DraftJson[]; nextCursor: string | null }>> | null;
  /** The first page (30, newest first) of GET /api/deals/:id/messages (parties only). */
  messages: Promise<MessagePage | null> | null;
  /** GET /api/relay/status (the deployment's configuration, no chain read; the brand only). */
  relay: RelayStatus | null;
  /**
   * GET /api/deals/:id/funding (the brand of an unfunded deal), for the deal and the
   * termsVersion it was read with (a bonus's funding panel is another deal's); null inside when only the chain can answer (a deposit address to
   * replace: its balance is read first).
   */
  funding: Promise<{
    dealId: string;
    termsVersion: number;
    funding: FundingTermsAnswer;
  } | null> | null;
  /**
   * GET /api/reputation/:wallet of the wallets the page shows (the creator's, a payout's
   * recipient), by lowercased address: a chain read, so at most a short wait, then null.
   */
  reputation: Record<string, Promise<Reputation | null>>;
};

/**
 * A seed with nothing read but `reputation` (which any viewer may see): what a viewer who is
 * not a party gets, and the panels' default outside the deal page (every panel fetches).
 */
export const noDealPageSeed = (reputation: DealPageSeed["reputation"] = {}): DealPageSeed => ({
  events: null,
  evidence: null,
  bonuses: null,
  drafts: null,
  messages: null,
  relay: null,
  funding: null,
  reputation,
});

export const evidenceSeedKey = (milestoneId: string, revision: number) =>
  `${milestoneId}:${revision}`;
