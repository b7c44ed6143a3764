import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { leaseEnd, leaseFree } from "@/db/queries/leases";
import { chainTransactions, deals, type TxStatus, users, withdrawals } from "@/db/schema";

// Withdrawals from users' embedded wallets (lib/wallet/withdraw.ts), always by their owner.

/** A withdrawal with its transaction's state: what the API and the ledger show. */
export type WithdrawalView = {
  id: string;
  userId: string;
  chainId: number;
  fromAddress: string;
  toAddress: string;
  amountUnits: bigint;
  txHash: string;
  /** The transaction's state: pending / submitted (on its way), confirmed, failed (nothing moved). */
  status: TxStatus;
  blockNumber: bigint | null;
  createdAt: Date;
};

const view = {
  id: withdrawals.id,
  userId: withdrawals.userId,
  chainId: withdrawals.chainId,
  fromAddress: withdrawals.fromAddress,
  toAddress: withdrawals.toAddress,
  amountUnits: withdrawals.amountUnits,
  txHash: withdrawals.txHash,
  status: chainTransactions.status,
  blockNumber: chainTransactions.blockNumber,
  createdAt: withdrawals.createdAt,
};

/**
 * Takes the user's withdrawal lease for `ms` (the database's clock) when nobody holds it: its
 * end (what releaseWithdrawalLease matches), or null while another send holds it.
 */
export async function takeWithdrawalLease(
  db: DbOrTx,
  userId: string,
  ms: number,
): Promise<Date | null> {
  const [row] = await db
    .update(users)
    .set({ withdrawalLeaseUntil: leaseEnd(ms) })
    .where(and(eq(users.id, userId), leaseFree(users.withdrawalLeaseUntil)))
    .returning({ until: users.withdrawalLeaseUntil });
  return row?.until ?? null;
}

/** Gives back the withdrawal lease taken as `lease` (not one another send took since). */
export async function releaseWithdrawalLease(
  db: DbOrTx,
  userId: string,
  lease: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ withdrawalLeaseUntil: null })
    .where(and(eq(users.id, userId), eq(users.withdrawalLeaseUntil, lease)));
}

/**
 * Locks the user's row until the caller's transaction ends: withdrawals of one user are
 * checked against the balance one at a time. False when the user no longer exists.
 */
export async function lockWithdrawingUser(tx: DbOrTx, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  return rows.length > 0;
}

/**
 * USDC that withdrawals from `from` have taken or are taking which a balance read at block
 * `block` may still show: every one not yet confirmed (pending or submitted: it may be mined
 * any moment) and every one mined after that block. Refused or reverted ones moved nothing.
 * A pending one already mined at or before `block` is counted too: too much, never too little.
 */
export async function unsettledWithdrawalUnits(
  tx: DbOrTx,
  p: { chainId: number; from: string; block: bigint },
): Promise<bigint> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${withdrawals.amountUnits}), 0)::text` })
    .from(withdrawals)
    .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTxId))
    .where(
      and(
        eq(withdrawals.chainId, p.chainId),
        sql`lower(${withdrawals.fromAddress}) = ${p.from.toLowerCase()}`,
        or(
          inArray(chainTransactions.status, ["pending", "submitted"]),
          and(
            eq(chainTransactions.status, "confirmed"),
            sql`${chainTransactions.blockNumber} > ${p.block.toString()}`,
          ),
        ),
      ),
    );
  return BigInt(row?.total ?? "0");
}

export async function insertWithdrawal(
  tx: DbOrTx,
  values: typeof withdrawals.$inferInsert,
): Promise<void> {
  await tx.insert(withdrawals).values(values);
}

/** The user's withdrawals on `chainId`, newest first. */
export function listWithdrawals(
  db: DbOrTx,
  p: { userId: string; chainId?: number; limit?: number },
): Promise<WithdrawalView[]> {
  return db
    .select(view)
    .from(withdrawals)
    .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTxId))
    .where(
      and(
        eq(withdrawals.userId, p.userId),
        p.chainId === undefined ? undefined : eq(withdrawals.chainId, p.chainId),
      ),
    )
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(p.limit ?? 100);
}

/** One of the user's withdrawals (never another user's). */
export async function findWithdrawal(
  db: DbOrTx,
  p: { userId: string; id: string },
): Promise<WithdrawalView | null> {
  const [row] = await db
    .select(view)
    .from(withdrawals)
    .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTxId))
    .where(and(eq(withdrawals.userId, p.userId), eq(withdrawals.id, p.id)));
  return row ?? null;
}

/**
 * The wallets that funded the brand's deals (deals.brand_wallet), distinct, oldest first; at
 * most `limit` (a brand funds from a wallet or two, not from hundreds).
 */
export async function brandFundingWallets(
  db: DbOrTx,
  brandId: string,
  limit = 10,
): Promise<string[]> {
  const rows = await db
    .select({
      wallet: sql<string>`min(${deals.brandWallet})`,
      first: sql<Date>`min(${deals.createdAt})`,
    })
    .from(deals)
    .where(and(eq(deals.brandId, brandId), isNotNull(deals.brandWallet)))
    .groupBy(sql`lower(${deals.brandWallet})`)
    .orderBy(sql`min(${deals.createdAt})`)
    .limit(limit);
  return rows.map((r) => r.wallet);
}
