import { and, asc, eq, inArray, isNull, notExists, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { deals, type Settlement, settlements } from "@/db/schema";

// The reputation queue (lib/settle/reputation.ts): confirmed settlements whose record on the
// registry is not written yet (partial index settlements_reputation_queue_idx). Drained by
// the service itself after a payment and by reconcile — no person asks, so no owner to
// filter by; a settlement is reached by its id or its deal's.

/** The registry recorded the settlement in this transaction. */
export async function setReputationTxHash(
  db: DbOrTx,
  settlementIds: string | string[],
  txHash: string,
): Promise<void> {
  const ids = typeof settlementIds === "string" ? [settlementIds] : settlementIds;
  if (ids.length === 0) return;
  await db
    .update(settlements)
    .set({ reputationTxHash: txHash, updatedAt: new Date() })
    .where(ids.length === 1 ? eq(settlements.id, ids[0] as string) : inArray(settlements.id, ids));
}

/**
 * Confirmed settlements on `chainId` with no reputation record yet, oldest first, `limit`
 * at most; `settlementId` / `settlementIds` / `dealId` narrow it to those settlements or one
 * deal's.
 */
export function listReputationQueue(
  db: DbOrTx,
  opts: {
    chainId: number;
    settlementId?: string;
    settlementIds?: string[];
    dealId?: string;
    limit: number;
  },
): Promise<Settlement[]> {
  return db
    .select()
    .from(settlements)
    .where(
      and(
        eq(settlements.status, "confirmed"),
        isNull(settlements.reputationTxHash),
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
    .limit(opts.limit);
}
