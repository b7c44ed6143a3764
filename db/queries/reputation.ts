import { and, asc, eq, inArray, isNull, notExists, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { leaseEnd, leaseFree } from "@/db/queries/leases";
import { deals, type Settlement, settlements } from "@/db/schema";

// The reputation queue (lib/settle/reputation.ts): confirmed settlements whose record on the
// registry is not written yet (partial index settlements_reputation_queue_idx). Drained by
// the service itself after a payment and by reconcile — no person asks, so no owner to
// filter by; a settlement is reached by its id or its deal's. A drain takes the records it
// sends under a lease (settlements.reputation_lease_until): two drains — reconcile's and the
// one after a response, or two processes' — never carry the same record at once.

/** The registry recorded the settlement in this transaction (its lease ends with it). */
export async function setReputationTxHash(
  db: DbOrTx,
  settlementIds: string | string[],
  txHash: string,
): Promise<void> {
  const ids = typeof settlementIds === "string" ? [settlementIds] : settlementIds;
  if (ids.length === 0) return;
  await db
    .update(settlements)
    .set({ reputationTxHash: txHash, reputationLeaseUntil: null, updatedAt: new Date() })
    .where(ids.length === 1 ? eq(settlements.id, ids[0] as string) : inArray(settlements.id, ids));
}

/**
 * Takes the queue's records for a drain, `ms` long (the database's clock): confirmed
 * settlements on `chainId` with no reputation record yet and no other drain's lease, oldest
 * first, `limit` at most; `settlementId` / `settlementIds` / `dealId` narrow it to those
 * settlements or one deal's. One statement: rows another drain is taking at the same moment
 * are skipped, not waited for. Returns them with their lease (the same end for all).
 */
export async function claimReputationQueue(
  db: DbOrTx,
  opts: {
    chainId: number;
    settlementId?: string;
    settlementIds?: string[];
    dealId?: string;
    limit: number;
    ms: number;
  },
): Promise<Settlement[]> {
  const queued = and(
    eq(settlements.status, "confirmed"),
    isNull(settlements.reputationTxHash),
    leaseFree(settlements.reputationLeaseUntil),
  );
  const free = db
    .select({ id: settlements.id })
    .from(settlements)
    .where(
      and(
        queued,
        eq(settlements.chainId, opts.chainId),
        // A bonus (its own escrow deal, lib/settle/bonuses.ts) is no verdict: reputation
        // follows verdicts only, so its release is never recorded on the registry.
        notExists(
          db
            .select({ one: sql`1` })
            .from(deals)
            .where(and(eq(deals.id, settlements.dealId), sql`${deals.parentDealId} is not null`)),
        ),
        opts.settlementId ? eq(settlements.id, opts.settlementId) : undefined,
        opts.settlementIds ? inArray(settlements.id, opts.settlementIds) : undefined,
        opts.dealId ? eq(settlements.dealId, opts.dealId) : undefined,
      ),
    )
    .orderBy(asc(settlements.createdAt))
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(settlements)
    .set({ reputationLeaseUntil: leaseEnd(opts.ms) })
    // `queued` again: checked on the row as it is once locked.
    .where(and(inArray(settlements.id, free), queued))
    .returning();
  return claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Gives back the lease taken as `lease` on these settlements' records (still queued). */
export async function releaseReputationLease(
  db: DbOrTx,
  settlementIds: string[],
  lease: Date,
): Promise<void> {
  if (settlementIds.length === 0) return;
  await db
    .update(settlements)
    .set({ reputationLeaseUntil: null })
    .where(
      and(
        inArray(settlements.id, settlementIds),
        eq(settlements.reputationLeaseUntil, lease),
        isNull(settlements.reputationTxHash),
      ),
    );
}
