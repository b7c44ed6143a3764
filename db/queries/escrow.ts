import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { placeholder, reusable } from "@/db/reusable";
import { type Deal, deals, milestones } from "@/db/schema";

// The escrow mirror (lib/escrow/deals.ts): what the chain says about a deal, written back
// by the service (funding, the creator's assignment, refunds) — by deal id, for the watcher
// and the funding sync; callers reach a deal through its parties first where a person asks.

export async function getDeal(db: DbOrTx, dealId: string): Promise<Deal | undefined> {
  const [d] = await db.select().from(deals).where(eq(deals.id, dealId));
  return d;
}

const lockDealStatement = reusable((db) =>
  db
    .select()
    .from(deals)
    .where(eq(deals.id, placeholder("id")))
    .for("no key update")
    .prepare("lock_deal"),
);

/**
 * The deal, its row locked FOR NO KEY UPDATE (as every deal write takes) until the
 * transaction ends. Every settle takes it twice: a `reusable` statement.
 */
export async function lockDeal(tx: DbOrTx, dealId: string): Promise<Deal | undefined> {
  const [d] = await lockDealStatement(tx, { id: dealId });
  return d;
}

/** Opens an unfunded deal with what the escrow holds; undefined when it was not unfunded. */
export async function markDealFunded(
  tx: DbOrTx,
  dealId: string,
  f: Pick<
    Deal,
    "escrowChainId" | "escrowAddress" | "brandWallet" | "fundingTxHash" | "fundedBlock"
  >,
): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ status: "open", ...f, fundedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), eq(deals.status, "unfunded")))
    .returning();
  return row;
}

/** The creator is recorded on-chain. */
export async function markDealAssigned(db: DbOrTx, dealId: string): Promise<Deal | undefined> {
  const [assigned] = await db
    .update(deals)
    .set({ assignedAt: new Date(), updatedAt: new Date() })
    .where(eq(deals.id, dealId))
    .returning();
  return assigned;
}

/** The chain transaction that assigns the creator (resumed rather than sent twice). */
export async function setAssignTx(tx: DbOrTx, dealId: string, txId: string): Promise<void> {
  await tx.update(deals).set({ assignTxId: txId }).where(eq(deals.id, dealId));
}

/** A milestone the escrow refunded; false when it was already paid or refunded. */
export async function markMilestoneRefunded(
  tx: DbOrTx,
  milestoneId: string,
  refundTxHash: string | null,
): Promise<boolean> {
  const changed = await tx
    .update(milestones)
    .set({ status: "refunded", refundTxHash, updatedAt: new Date() })
    .where(and(eq(milestones.id, milestoneId), notInArray(milestones.status, ["paid", "refunded"])))
    .returning({ id: milestones.id });
  return changed.length > 0;
}

/** Closes a deal that is still unfunded, open or active; undefined when it was not. */
export async function closeDeal(
  tx: DbOrTx,
  dealId: string,
  status: "cancelled" | "completed" | "expired",
): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), inArray(deals.status, ["unfunded", "open", "active"])))
    .returning();
  return row;
}

/**
 * Deals the watcher looks at: unfunded, open or active (optionally one of them), least
 * recently updated first.
 */
export async function listDealsToWatch(
  db: DbOrTx,
  opts: { dealId?: string; limit: number },
): Promise<Deal[]> {
  return db
    .select()
    .from(deals)
    .where(
      and(
        inArray(deals.status, ["unfunded", "open", "active"]),
        opts.dealId ? eq(deals.id, opts.dealId) : undefined,
      ),
    )
    .orderBy(sql`${deals.updatedAt} asc`)
    .limit(opts.limit);
}

/**
 * Cancels a deal nobody funded (the brand's cancel, lib/deals/funding.ts, after it found the
 * deal is theirs); undefined when it was no longer unfunded.
 */
export async function cancelUnfundedDeal(tx: DbOrTx, dealId: string): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ status: "cancelled", updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), eq(deals.status, "unfunded")))
    .returning();
  return row;
}

/** The watcher looked at the deal now: its next run starts with the deals looked at longest ago. */
export async function touchDeal(db: DbOrTx, dealId: string): Promise<void> {
  await db.update(deals).set({ updatedAt: new Date() }).where(eq(deals.id, dealId));
}
