import { and, asc, eq, or, sql } from "drizzle-orm";
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
    chainTxId: string;
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
  await db
    .delete(faucetDrips)
    .where(
      and(
        eq(faucetDrips.id, p.id),
        p.chainTxId ? eq(faucetDrips.chainTxId, p.chainTxId) : sql`true`,
      ),
    );
}
