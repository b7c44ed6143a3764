import { and, eq, gt, inArray, isNotNull, isNull, notInArray, or, sql } from "drizzle-orm";
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

/** No funding hold, or one that ran out (a crashed request's). */
const notHeld = sql`(${deals.fundingHeldUntil} is null or ${deals.fundingHeldUntil} <= now())`;

/**
 * A deal the escrow may hold money for that the app has not opened: unfunded, or cancelled
 * before any funding was seen (a funding from a wallet may have landed after the cancel).
 */
const neverFunded = sql`(${deals.status} = 'unfunded' or (${deals.status} = 'cancelled' and ${deals.fundedAt} is null))`;

/**
 * Opens a deal with what the escrow holds: an unfunded one, or one cancelled in the app
 * before its funding was seen (the escrow holds its money, so it is open again); its funding
 * hold ends. Undefined when the deal was neither.
 */
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
    .set({
      status: "open",
      ...f,
      fundedAt: new Date(),
      fundingHeldUntil: null,
      fundingAttempts: [],
      updatedAt: new Date(),
    })
    .where(and(eq(deals.id, dealId), neverFunded))
    .returning();
  return row;
}

/**
 * A funding the service relays holds the unfunded deal until `seconds` from now, in the
 * statement that finds it unfunded, so a cancel cannot slip between that check and the
 * relay (cancelUnfundedDeal waits for the hold to end). Attempts with the same funder share
 * the hold (the escrow refuses a second funding of one key, so they cannot move money twice);
 * another funder's attempt is refused while it lasts. The funder becomes the deal's funding
 * wallet. Undefined when the deal is not unfunded or another funder holds it.
 */
export async function holdForFunding(
  db: DbOrTx,
  dealId: string,
  h: { attempt: string; funder: string; seconds: number },
): Promise<Deal | undefined> {
  const [row] = await db
    .update(deals)
    .set({
      fundingAttempts: sql`case when ${notHeld} then array[${h.attempt}::uuid] else array_append(${deals.fundingAttempts}, ${h.attempt}::uuid) end`,
      fundingHeldUntil: sql`now() + ${Math.ceil(h.seconds)}::int * interval '1 second'`,
      brandWallet: h.funder,
    })
    .where(
      and(
        eq(deals.id, dealId),
        eq(deals.status, "unfunded"),
        sql`(${notHeld} or lower(${deals.brandWallet}) = lower(${h.funder}))`,
      ),
    )
    .returning();
  return row;
}

/**
 * The attempt's funding resolved without opening the deal (refused: nothing moved): it
 * leaves the hold, which ends with the last attempt. A stale attempt (its hold ran out and
 * another began) changes nothing.
 */
export async function releaseFundingHold(
  db: DbOrTx,
  dealId: string,
  attempt: string,
): Promise<void> {
  const rest = sql`array_remove(${deals.fundingAttempts}, ${attempt}::uuid)`;
  await db
    .update(deals)
    .set({
      fundingAttempts: rest,
      fundingHeldUntil: sql`case when cardinality(${rest}) = 0 then null else ${deals.fundingHeldUntil} end`,
    })
    .where(and(eq(deals.id, dealId), sql`${attempt}::uuid = any(${deals.fundingAttempts})`));
}

/**
 * The wallet the brand said it funds an unfunded deal from (lib/escrow/deals.ts): the escrow
 * key the funding checks and the watcher read until the deal opens. Undefined when the deal
 * was no longer unfunded, or a relayed funding holds it (its funder is the wallet then).
 */
export async function setFundingWallet(
  db: DbOrTx,
  dealId: string,
  wallet: string,
): Promise<Deal | undefined> {
  const [row] = await db
    .update(deals)
    .set({ brandWallet: wallet })
    .where(and(eq(deals.id, dealId), eq(deals.status, "unfunded"), notHeld))
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

/**
 * The creator's assignment is gone from the chain (a reorg): unassigned until it is sent
 * again. (Should another process have sent it again meanwhile, the caller's own
 * assignCreatorOnChain, which follows, reads the creator on the chain and assigns it again.)
 */
export async function markDealUnassigned(db: DbOrTx, dealId: string): Promise<Deal | undefined> {
  const [row] = await db
    .update(deals)
    .set({ assignedAt: null, updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), isNotNull(deals.assignedAt)))
    .returning();
  return row;
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
 * Deals the watcher looks at: unfunded, open or active, and those cancelled before any
 * funding was seen whose deadline is after `cancelledDeadlineAfter` (a funding from a wallet
 * may have reached the escrow after the cancel; the escrow takes none past the deadline) —
 * optionally one of them, least recently updated first.
 */
export async function listDealsToWatch(
  db: DbOrTx,
  opts: { dealId?: string; limit: number; cancelledDeadlineAfter: Date },
): Promise<Deal[]> {
  return db
    .select()
    .from(deals)
    .where(
      and(
        or(
          inArray(deals.status, ["unfunded", "open", "active"]),
          and(
            eq(deals.status, "cancelled"),
            isNull(deals.fundedAt),
            gt(deals.deadlineAt, opts.cancelledDeadlineAfter),
          ),
        ),
        opts.dealId ? eq(deals.id, opts.dealId) : undefined,
      ),
    )
    .orderBy(sql`${deals.updatedAt} asc`)
    .limit(opts.limit);
}

/**
 * Cancels a deal nobody funded (the brand's cancel, lib/deals/funding.ts, after it found the
 * deal is theirs and the escrow empty); undefined when it was no longer unfunded or a
 * funding holds it (holdForFunding): the same row, so one of the two statements wins.
 */
export async function cancelUnfundedDeal(tx: DbOrTx, dealId: string): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ status: "cancelled", updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), eq(deals.status, "unfunded"), notHeld))
    .returning();
  return row;
}

/** The watcher looked at the deal now: its next run starts with the deals looked at longest ago. */
export async function touchDeal(db: DbOrTx, dealId: string): Promise<void> {
  await db.update(deals).set({ updatedAt: new Date() }).where(eq(deals.id, dealId));
}
