import type { Db } from "@/db/client";
import type { User } from "@/db/schema";
import { relayStatus } from "@/lib/chain/relay";
import { type Reputation, readReputation } from "@/lib/chain/reputation";
import { getFundingTermsFromDatabase } from "@/lib/deals/funding";
import { listMessages } from "@/lib/deals/messages";
import { type DealPageSeed, evidenceSeedKey, noDealPageSeed } from "@/lib/deals/page-seed";
import { listMilestoneDrafts } from "@/lib/drafts/drafts";
import { listDealEvents } from "@/lib/events/events";
import { listBonuses } from "@/lib/settle/bonuses";
import type { DealDetailJson } from "@/lib/settle/review";
import { milestoneEvidence } from "@/lib/verify/evidence/read";

/** How long the streamed reputation waits for the chain before leaving the badge to fetch it. */
const REPUTATION_WAIT_MS = 1500;

/**
 * What the deal page's panels show besides the deal, started on the server and not awaited:
 * each part is a promise the page streams (components/deals/page-seed.tsx), read through the
 * same domain function as its API route, so filtered by the viewer as a party. From the
 * database alone: the activity log's first page, the evidence of each verified milestone's
 * revision, the bonuses, each milestone's drafts, the message thread's first page, the
 * funding terms (the brand of an unfunded deal); the relayer's status is configuration. The one chain read, the reputation of the
 * wallets shown, is bounded by REPUTATION_WAIT_MS. A part that fails resolves to null, and
 * its panel fetches.
 */
export function loadDealSeed(db: Db, user: User, deal: DealDetailJson): DealPageSeed {
  const reputation = reputationSeed(deal);
  const party = deal.brandId === user.id || deal.creatorId === user.id;
  if (!party) return noDealPageSeed(reputation);
  const brand = deal.brandId === user.id;
  const verified = deal.milestones.flatMap((m) =>
    m.deliverable && m.verdict ? [{ id: m.id, revision: m.deliverable.revision }] : [],
  );
  const evidence = Promise.all(
    verified.map((m) =>
      milestoneEvidence(db, user, m.id, { limit: 20, revision: m.revision }).catch(() => null),
    ),
  ).then((pages) => {
    const seeded: Record<string, NonNullable<(typeof pages)[number]>["items"]> = {};
    verified.forEach((m, i) => {
      const page = pages[i];
      if (page) seeded[evidenceSeedKey(m.id, m.revision)] = page.items;
    });
    return seeded;
  });
  const drafts = deal.creatorId
    ? Promise.all(
        deal.milestones.map((m) =>
          listMilestoneDrafts(db, user, m.id, { limit: 20 }).catch(() => null),
        ),
      ).then((pages) => {
        const seeded: NonNullable<Awaited<DealPageSeed["drafts"]>> = {};
        deal.milestones.forEach((m, i) => {
          const page = pages[i];
          if (page) seeded[m.id] = { drafts: page.items, nextCursor: page.nextCursor };
        });
        return seeded;
      })
    : null;
  return {
    events: listDealEvents(db, user, deal.id, { limit: 50 })
      .then((page) => ({ events: page.items, nextCursor: page.nextCursor }))
      .catch(() => null),
    evidence,
    bonuses: listBonuses(db, user, deal.id, { limit: 100 }).catch(() => null),
    drafts,
    messages: listMessages(db, user, deal.id, { limit: 30 }).catch(() => null),
    relay: brand ? relayStatus() : null,
    funding:
      brand && deal.status === "unfunded"
        ? getFundingTermsFromDatabase(db, user, deal.id)
            .then((funding) =>
              funding ? { dealId: deal.id, termsVersion: deal.termsVersion, funding } : null,
            )
            .catch(() => null)
        : null,
    reputation,
  };
}

/** The on-chain reputation of each wallet the page shows, each bounded by REPUTATION_WAIT_MS. */
function reputationSeed(deal: DealDetailJson): DealPageSeed["reputation"] {
  const wallets = new Set<string>();
  if (deal.creator?.walletAddress) wallets.add(deal.creator.walletAddress.toLowerCase());
  for (const m of deal.milestones)
    if (m.settlement?.recipient) wallets.add(m.settlement.recipient.toLowerCase());
  const seed: DealPageSeed["reputation"] = {};
  for (const wallet of wallets) seed[wallet] = within(readReputation(wallet as `0x${string}`));
  return seed;
}

/** `read`'s answer, or null when it fails or takes longer than REPUTATION_WAIT_MS. */
function within(read: Promise<Reputation>): Promise<Reputation | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), REPUTATION_WAIT_MS);
  });
  return Promise.race([read.catch(() => null), late]).finally(() => clearTimeout(timer));
}
