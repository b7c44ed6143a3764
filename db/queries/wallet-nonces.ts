import { and, desc, eq, gt, isNotNull, isNull, lt, notInArray, or } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { walletNonces } from "@/db/schema";

// Server-issued nonces for wallet-linking messages. A nonce belongs to one user, expires,
// and is consumed by a single conditional UPDATE, so two concurrent uses cannot both win.

export type WalletNonce = typeof walletNonces.$inferSelect;

export async function createWalletNonce(
  db: DbOrTx,
  p: { userId: string; nonce: string; expiresAt: Date },
): Promise<WalletNonce> {
  const [row] = await db.insert(walletNonces).values(p).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/**
 * Drops the user's used and expired nonces, and all but the newest `keep` live ones, so
 * the table stays small however often a client asks.
 */
export async function pruneWalletNonces(
  db: DbOrTx,
  p: { userId: string; now: Date; keep: number },
) {
  const newest = db
    .select({ nonce: walletNonces.nonce })
    .from(walletNonces)
    .where(eq(walletNonces.userId, p.userId))
    .orderBy(desc(walletNonces.createdAt))
    .limit(p.keep);
  await db
    .delete(walletNonces)
    .where(
      and(
        eq(walletNonces.userId, p.userId),
        or(
          isNotNull(walletNonces.usedAt),
          lt(walletNonces.expiresAt, p.now),
          notInArray(walletNonces.nonce, newest),
        ),
      ),
    );
}

/** Marks the nonce used if it is the user's, unused and unexpired; false otherwise. */
export async function consumeWalletNonce(
  db: DbOrTx,
  p: { userId: string; nonce: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(walletNonces)
    .set({ usedAt: p.now })
    .where(
      and(
        eq(walletNonces.nonce, p.nonce),
        eq(walletNonces.userId, p.userId),
        isNull(walletNonces.usedAt),
        gt(walletNonces.expiresAt, p.now),
      ),
    )
    .returning({ nonce: walletNonces.nonce });
  return rows.length === 1;
}

/** The caller's nonce (never another user's), to explain why consuming it failed. */
export async function getWalletNonce(
  db: DbOrTx,
  p: { userId: string; nonce: string },
): Promise<WalletNonce | null> {
  const [row] = await db
    .select()
    .from(walletNonces)
    .where(and(eq(walletNonces.nonce, p.nonce), eq(walletNonces.userId, p.userId)))
    .limit(1);
  return row ?? null;
}
