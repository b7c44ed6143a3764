import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";

// Rows of `Idempotency-Key` requests (lib/idempotency.ts), always by (user, key).

type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
type KeyOf = { userId: string; key: string };

const byUserKey = (k: KeyOf) =>
  and(eq(idempotencyKeys.userId, k.userId), eq(idempotencyKeys.key, k.key));

/** Claims the key for a new request; null when a row for (user, key) already exists. */
export async function claimIdempotencyKey(
  db: DbOrTx,
  row: KeyOf & { route: string; requestHash: string },
): Promise<IdempotencyKey | null> {
  const [claimed] = await db.insert(idempotencyKeys).values(row).onConflictDoNothing().returning();
  return claimed ?? null;
}

export async function findIdempotencyKey(db: DbOrTx, k: KeyOf): Promise<IdempotencyKey | null> {
  const [row] = await db.select().from(idempotencyKeys).where(byUserKey(k));
  return row ?? null;
}

/** Frees the key (the request failed in a way a retry may repeat). */
export async function releaseIdempotencyKey(db: DbOrTx, k: KeyOf): Promise<void> {
  await db.delete(idempotencyKeys).where(byUserKey(k));
}

/** Records the final answer that replays of the key get back. */
export async function recordIdempotentResponse(
  db: DbOrTx,
  k: KeyOf,
  answer: { statusCode: number; response: unknown },
): Promise<void> {
  await db.update(idempotencyKeys).set(answer).where(byUserKey(k));
}
