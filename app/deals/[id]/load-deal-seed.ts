import type { Db } from "@/db/client";
import type { User } from "@/db/schema";
import { relayStatus } from "@/lib/chain/relay";
import { listMessages } from "@/lib/deals/messages";
import { type DealPageSeed, evidenceSeedKey } from "@/lib/deals/page-seed";
import { listDealEvents } from "@/lib/events/events";
import type { DealDetailJson } from "@/lib/settle/review";
import { milestoneEvidence } from "@/lib/verify/evidence/read";

/**
 * What the deal page's panels show besides the deal, read in one pass on the server (in
 * parallel, each through the same domain function as its API route, so filtered by the
 * viewer as a party): the activity log's first page and the evidence of each verified
 * milestone's revision, and the message thread's first page; for the brand, the relayer's
 * status (configuration only: nothing here waits on the chain). Only a party sees either; a read that fails leaves its panel to fetch.
 */
export async function loadDealSeed(
  db: Db,
  user: User,
  deal: DealDetailJson,
): Promise<DealPageSeed> {
  const party = deal.brandId === user.id || deal.creatorId === user.id;
  if (!party) return { events: null, evidence: {}, messages: null, relay: null };
  const verified = deal.milestones.flatMap((m) =>
    m.deliverable && m.verdict ? [{ id: m.id, revision: m.deliverable.revision }] : [],
  );
  const [events, messages, ...evidence] = await Promise.all([
    listDealEvents(db, user, deal.id, { limit: 50 }).catch(() => null),
    listMessages(db, user, deal.id, { limit: 30 }).catch(() => null),
    ...verified.map((m) =>
      milestoneEvidence(db, user, m.id, { limit: 20, revision: m.revision }).catch(() => null),
    ),
  ]);
  const seeded: DealPageSeed["evidence"] = {};
  verified.forEach((m, i) => {
    const page = evidence[i];
    if (page) seeded[evidenceSeedKey(m.id, m.revision)] = page.items;
  });
  return {
    events: events ? { events: events.items, nextCursor: events.nextCursor } : null,
    evidence: seeded,
    messages,
    relay: deal.brandId === user.id ? relayStatus() : null,
  };
}
