import { and, eq, gt, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { leaseEnd, leaseFree } from "@/db/queries/leases";
import { type Deal, type DealDeposit, type DepositStatus, dealDeposits, deals } from "@/db/schema";

// Deposit addresses (lib/escrow/deposit.ts): every address ever handed out for a deal, one
// row each; the deal's current one has no `superseded_at` (callers reach the deal through its
// brand first, or are the watcher).

const current = isNull(dealDeposits.supersededAt);

/** The deal's current deposit address. */
export async function getDeposit(db: DbOrTx, dealId: string): Promise<DealDeposit | undefined> {
  const [row] = await db
    .select()
    .from(dealDeposits)
    .where(and(eq(dealDeposits.dealId, dealId), current));
  return row;
}

/** One deposit address of the deal, current or replaced. */
export async function getDepositById(
  db: DbOrTx,
  dealId: string,
  id: string,
): Promise<DealDeposit | undefined> {
  const [row] = await db
    .select()
    .from(dealDeposits)
    .where(and(eq(dealDeposits.id, id), eq(dealDeposits.dealId, dealId)));
  return row;
}

/** Every deposit address the deal was given, oldest first. */
export async function listDealDeposits(db: DbOrTx, dealId: string): Promise<DealDeposit[]> {
  return db
    .select()
    .from(dealDeposits)
    .where(eq(dealDeposits.dealId, dealId))
    .orderBy(dealDeposits.createdAt);
}

export type DepositAddressRow = Pick<
  DealDeposit,
  "dealId" | "chainId" | "address" | "refundAddress" | "args"
>;

/**
 * Makes `d` the deal's current address: inserted when the deal has none; otherwise the current
 * one is marked superseded (never overwritten: the watcher keeps returning what it receives)
 * only while `replaceable` holds for it, in the same transaction. Returns the current row as it
 * stands afterwards.
 */
async function replaceDepositAddress(
  db: DbOrTx,
  d: DepositAddressRow,
  replaceable: SQL | undefined,
): Promise<DealDeposit | undefined> {
  return db.transaction(async (tx) => {
    const [now] = await tx
      .select()
      .from(dealDeposits)
      .where(and(eq(dealDeposits.dealId, d.dealId), current))
      .for("update");
    if (now) {
      if (now.address === d.address) return now;
      const superseded = await tx
        .update(dealDeposits)
        .set({ supersededAt: new Date(), updatedAt: new Date() })
        .where(and(eq(dealDeposits.id, now.id), current, replaceable))
        .returning({ id: dealDeposits.id });
      if (superseded.length === 0) return now;
    }
    await tx.insert(dealDeposits).values(d).onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(dealDeposits)
      .where(and(eq(dealDeposits.dealId, d.dealId), current));
    return row;
  });
}

/**
 * Gives the deal this deposit address, unless its current one has received something (or a
 * sweep or refund of it was sent): an address is only replaced while nothing was recorded
 * (the caller also read its balance on-chain); the replaced one is kept and watched.
 */
export function putDepositAddress(
  db: DbOrTx,
  d: DepositAddressRow,
): Promise<DealDeposit | undefined> {
  return replaceDepositAddress(
    db,
    d,
    and(
      eq(dealDeposits.status, "awaiting"),
      eq(dealDeposits.receivedUnits, 0n),
      isNull(dealDeposits.sweepTxId),
      isNull(dealDeposits.refundTxId),
    ),
  );
}

/**
 * After an address's money went back: the deal starts afresh at a new address (its terms
 * changed). Only from `returned`, so a row that received more meanwhile is left alone.
 */
export function restartDepositAddress(
  db: DbOrTx,
  d: DepositAddressRow,
): Promise<DealDeposit | undefined> {
  return replaceDepositAddress(db, d, eq(dealDeposits.status, "returned"));
}

/** The row, locked until the transaction ends. */
export async function lockDeposit(tx: DbOrTx, dealId: string): Promise<DealDeposit | undefined> {
  const [row] = await tx
    .select()
    .from(dealDeposits)
    .where(and(eq(dealDeposits.dealId, dealId), current))
    .for("update");
  return row;
}

/** Records what the address holds (or moved); only from the values the caller saw. */
export async function setDepositState(
  tx: DbOrTx,
  id: string,
  from: { receivedUnits: bigint; status: DepositStatus },
  to: { receivedUnits: bigint; status: DepositStatus },
): Promise<boolean> {
  const changed = await tx
    .update(dealDeposits)
    .set({ ...to, updatedAt: new Date() })
    .where(
      and(
        eq(dealDeposits.id, id),
        eq(dealDeposits.receivedUnits, from.receivedUnits),
        eq(dealDeposits.status, from.status),
      ),
    )
    .returning({ id: dealDeposits.id });
  return changed.length > 0;
}

/**
 * Claims the address's next sweep (or refund) transaction: set to `id` only while it is still
 * `previous` (null, or an earlier transaction that failed), so two watchers never both send.
 */
export async function claimDepositTx(
  tx: DbOrTx,
  depositId: string,
  kind: "sweep" | "refund",
  previous: string | null,
  id: string,
): Promise<boolean> {
  const column = kind === "sweep" ? dealDeposits.sweepTxId : dealDeposits.refundTxId;
  const changed = await tx
    .update(dealDeposits)
    .set(kind === "sweep" ? { sweepTxId: id } : { refundTxId: id })
    .where(
      and(
        eq(dealDeposits.id, depositId),
        previous === null ? isNull(column) : eq(column, previous),
      ),
    )
    .returning({ id: dealDeposits.id });
  return changed.length > 0;
}

/**
 * Takes the address's send lease for `ms` (the database's clock) when nobody holds it.
 * Returns the lease (its end, to the millisecond: what releaseDepositSendLease matches), or
 * null when another watcher holds it.
 */
export async function takeDepositSendLease(
  db: DbOrTx,
  id: string,
  ms: number,
): Promise<Date | null> {
  const [row] = await db
    .update(dealDeposits)
    .set({
      sendLeaseUntil: leaseEnd(ms),
    })
    .where(and(eq(dealDeposits.id, id), leaseFree(dealDeposits.sendLeaseUntil)))
    .returning({ until: dealDeposits.sendLeaseUntil });
  return row?.until ?? null;
}

/** Gives back the send lease taken as `lease` (not one another watcher took since). */
export async function releaseDepositSendLease(db: DbOrTx, id: string, lease: Date): Promise<void> {
  await db
    .update(dealDeposits)
    .set({ sendLeaseUntil: null })
    .where(and(eq(dealDeposits.id, id), eq(dealDeposits.sendLeaseUntil, lease)));
}

/** Whether a watcher holds the address's send lease now. */
export async function depositSendLeaseHeld(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: dealDeposits.id })
    .from(dealDeposits)
    .where(and(eq(dealDeposits.id, id), gt(dealDeposits.sendLeaseUntil, sql`now()`)));
  return Boolean(row);
}

/** The watcher looked at it now (its next run starts with those looked at longest ago). */
export async function touchDeposit(db: DbOrTx, id: string): Promise<void> {
  await db.update(dealDeposits).set({ updatedAt: new Date() }).where(eq(dealDeposits.id, id));
}

/**
 * Deposit addresses the watcher reads: every current one of an unfunded deal, any given out in
 * the last `recentDays` (late top-ups and deposits to a cancelled or expired deal are returned),
 * and every replaced one until its deal's deadline plus `graceSeconds` (money sent to an old
 * address goes back), least recently looked at first.
 */
export async function listDepositsToWatch(
  db: DbOrTx,
  opts: {
    chainId: number;
    dealId?: string;
    limit: number;
    recentDays: number;
    graceSeconds: number;
  },
): Promise<Array<{ deposit: DealDeposit; deal: Deal }>> {
  return db
    .select({ deposit: dealDeposits, deal: deals })
    .from(dealDeposits)
    .innerJoin(deals, eq(deals.id, dealDeposits.dealId))
    .where(
      and(
        eq(dealDeposits.chainId, opts.chainId),
        opts.dealId ? eq(dealDeposits.dealId, opts.dealId) : undefined,
        or(
          and(
            current,
            or(
              eq(deals.status, "unfunded"),
              gt(
                dealDeposits.createdAt,
                sql`now() - make_interval(days => ${opts.recentDays}::int)`,
              ),
            ),
          ),
          and(
            isNotNull(dealDeposits.supersededAt),
            gt(deals.deadlineAt, sql`now() - make_interval(secs => ${opts.graceSeconds}::int)`),
          ),
        ),
      ),
    )
    .orderBy(sql`${dealDeposits.updatedAt} asc`)
    .limit(opts.limit);
}
