import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { deliverables, evidence, evidenceClaims, milestones } from "@/db/schema";

// Claims on posts (db/schema.ts evidenceClaims): one milestone per post key. The unique
// (kind, key) row is the guarantee; these statements decide who may hold it.

export type ClaimKey = { kind: "url" | "content"; key: string };

export type ClaimOutcome =
  | { held: true }
  /** Another milestone holds the key; null when its row vanished meanwhile (try again). */
  | { held: false; holder: { milestoneId: string; dealId: string } | null };

/**
 * A claim is free for another milestone while no settlement rests on it and its milestone
 * no longer stands on it: rejected or refunded, its deal cancelled or expired, or moved on
 * to a newer revision than the one that claimed it.
 */
const releasedHolder = sql`exists (
  select 1 from ${milestones} m join deals d on d.id = m.deal_id
  where m.id = ${evidenceClaims.milestoneId}
    and (m.status in ('rejected', 'refunded')
      or d.status in ('cancelled', 'expired')
      or m.revision <> ${evidenceClaims.revision}))`;

/**
 * Claims one key for a milestone's revision, in the caller's transaction: inserted, or
 * already this milestone's (its revision brought up to date), or taken over from a holder
 * that released it. `settle` marks it held for good (a settlement is being created on it).
 * The key's row stays locked until the transaction ends, so a concurrent claim waits and
 * then sees the outcome.
 */
export async function claimEvidenceKey(
  tx: DbOrTx,
  k: ClaimKey,
  milestoneId: string,
  revision: number,
  settle: boolean,
): Promise<ClaimOutcome> {
  const settledAt = settle
    ? sql`coalesce(${evidenceClaims.settledAt}, now())`
    : sql`${evidenceClaims.settledAt}`;
  const own = await tx
    .insert(evidenceClaims)
    .values({ ...k, milestoneId, revision, settledAt: settle ? new Date() : null })
    .onConflictDoUpdate({
      target: [evidenceClaims.kind, evidenceClaims.key],
      set: { revision, settledAt, claimedAt: sql`now()` },
      setWhere: eq(evidenceClaims.milestoneId, milestoneId),
    })
    .returning({ milestoneId: evidenceClaims.milestoneId });
  if (own.length) return { held: true };
  const taken = await tx
    .update(evidenceClaims)
    .set({ milestoneId, revision, settledAt: settle ? new Date() : null, claimedAt: new Date() })
    .where(
      and(
        eq(evidenceClaims.kind, k.kind),
        eq(evidenceClaims.key, k.key),
        ne(evidenceClaims.milestoneId, milestoneId),
        isNull(evidenceClaims.settledAt),
        releasedHolder,
      ),
    )
    .returning({ milestoneId: evidenceClaims.milestoneId });
  if (taken.length) return { held: true };
  const [holder] = await tx
    .select({ milestoneId: evidenceClaims.milestoneId, dealId: milestones.dealId })
    .from(evidenceClaims)
    .innerJoin(milestones, eq(milestones.id, evidenceClaims.milestoneId))
    .where(and(eq(evidenceClaims.kind, k.kind), eq(evidenceClaims.key, k.key)));
  return { held: false, holder: holder ?? null };
}

/**
 * What a revision is paid on: its deliverable's URL and, once read, its evidence (status,
 * canonical URL, content hash). Null when the revision has no deliverable.
 */
export async function revisionPost(
  tx: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<{
  url: string;
  evidence: { status: string; canonicalUrl: string | null; contentHash: string } | null;
} | null> {
  const [row] = await tx
    .select({
      url: deliverables.url,
      status: evidence.status,
      canonicalUrl: evidence.canonicalUrl,
      contentHash: evidence.contentHash,
    })
    .from(deliverables)
    .leftJoin(
      evidence,
      and(eq(evidence.milestoneId, deliverables.milestoneId), eq(evidence.revision, revision)),
    )
    .where(and(eq(deliverables.milestoneId, milestoneId), eq(deliverables.revision, revision)));
  if (!row) return null;
  return {
    url: row.url,
    evidence:
      row.status && row.contentHash
        ? { status: row.status, canonicalUrl: row.canonicalUrl, contentHash: row.contentHash }
        : null,
  };
}

/** A milestone's claims (tests and support). */
export function listEvidenceClaims(db: DbOrTx, milestoneId: string) {
  return db.select().from(evidenceClaims).where(eq(evidenceClaims.milestoneId, milestoneId));
}
