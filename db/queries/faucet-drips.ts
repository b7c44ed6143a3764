import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type FaucetDrip, faucetDrips, type TxStatus } from "@/db/schema";

// Faucet drips. One per address (case-insensitively) and one per user on each chain: the
// unique indexes below decide which of several concurrent claims wins.

export const DRIP_ADDRESS_INDEX = "faucet_drips_chain_address_key";
export const DRIP_USER_INDEX = "faucet_drips_chain_user_key";

/**
 * The drip that blocks a new one for this user or this address, if any. When both exist,
 * the one for the address comes first (it is what the caller asked about).
 */
export async function findBlockingDrip(
  db: DbOrTx,
  p: { chainId: number; userId: string; address: string },
): Promise<FaucetDrip | null> {
  const byAddress = sql`lower(${faucetDrips.address}) = ${p.address.toLowerCase()}`;
  const [row] = await db
    .select()
    .from(faucetDrips)
    .where(and(eq(faucetDrips.chainId, p.chainId), or(byAddress, eq(faucetDrips.userId, p.userId))))
    .orderBy(sql`case when ${byAddress} then 0 else 1 end`, asc(faucetDrips.createdAt))
    .limit(1);
  return row ?? null;
}

export async function insertDrip(
  db: DbOrTx,
  p: {
    chainId: number;
    userId: string;
    address: string;
    amountUnits: bigint;
    txHash: string | null;
    /** Null for a claim made before its transfer is recorded (attachDripTx adds it). */
    chainTxId: string | null;
  },
): Promise<FaucetDrip> {
  const [row] = await db
    .insert(faucetDrips)
    .values({ ...p, status: "pending" })
    .returning();
  if (!row) throw new Error("insert returned no drip row");
  return row;
}

export async function setDripStatus(
  db: DbOrTx,
  p: { id: string; status: TxStatus; txHash: string | null },
): Promise<FaucetDrip | null> {
  const [row] = await db
    .update(faucetDrips)
    .set({ status: p.status, txHash: p.txHash, updatedAt: sql`now()` })
    .where(eq(faucetDrips.id, p.id))
    .returning();
  return row ?? null;
}

/**
 * Releases a claim whose transaction never happened (refused by the node, or reverted), so
 * the address and the user may drip again. Only that very claim is removed.
 */
export async function releaseDrip(db: DbOrTx, p: { id: string; chainTxId: string | null }) {
  await db.delete(faucetDrips).where(
    and(
      eq(faucetDrips.id, p.id),
      // A claim whose transfer was never recorded: only while it still has none.
      p.chainTxId ? eq(faucetDrips.chainTxId, p.chainTxId) : isNull(faucetDrips.chainTxId),
    ),
  );
}

/** A drip by id. */
export async function findDrip(db: DbOrTx, id: string): Promise<FaucetDrip | null> {
  const [row] = await db.select().from(faucetDrips).where(eq(faucetDrips.id, id));
  return row ?? null;
}

/**
 * Records the transfer of a claim that has none yet (in the sender's transaction, with the
 * transfer's row). Null when the claim is gone (released as abandoned meanwhile).
 */
export async function attachDripTx(
  tx: DbOrTx,
  p: { id: string; chainTxId: string; txHash: string },
): Promise<FaucetDrip | null> {
  const [row] = await tx
    .update(faucetDrips)
    .set({ chainTxId: p.chainTxId, txHash: p.txHash, updatedAt: sql`now()` })
    .where(and(eq(faucetDrips.id, p.id), isNull(faucetDrips.chainTxId)))
    .returning();
  return row ?? null;
}

/**
 * Removes a claim that never got its transfer recorded and is older than `ms` by the
 * database's clock (its process died between the claim and the recording). True when it did.
 */
export async function releaseAbandonedClaim(
  db: DbOrTx,
  p: { id: string; ms: number },
): Promise<boolean> {
  const rows = await db
    .delete(faucetDrips)
    .where(
      and(
        eq(faucetDrips.id, p.id),
        isNull(faucetDrips.chainTxId),
        sql`${faucetDrips.createdAt} < now() - ${p.ms} * interval '1 millisecond'`,
      ),
    )
    .returning({ id: faucetDrips.id });
  return rows.length > 0;
}
