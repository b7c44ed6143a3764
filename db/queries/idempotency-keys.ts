import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";

// Rows of `Idempotency-Key` requests (lib/idempotency.ts), always by (user, key).

type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
type KeyOf = { userId: string; key: string };

const byUserKey = (k: KeyOf) =>
  and(eq(idempotencyKeys.userId, k.userId), eq(idempotencyKeys.key, k.key));

/** How long a finished request's answer is replayed for its key (Stripe keeps keys 24 h). */
export const KEY_TTL_SECONDS = 24 * 3600;
/**
 * A key still marked running after this belongs to a request that crashed (no request runs
 * this long): the next retry runs instead of being told "still running" for ever.
 */
export const STALE_RUNNING_SECONDS = 10 * 60;

const ageOver = (seconds: number) =>
  sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${seconds})`;

/**
 * Claims the key for a new request: a new row, or an expired one claimed anew (a finished
 * answer older than KEY_TTL_SECONDS, or a crashed request's claim older than
 * STALE_RUNNING_SECONDS). null when a live row for (user, key) exists.
 */
export async function claimIdempotencyKey(
  db: DbOrTx,
  row: KeyOf & { route: string; requestHash: string },
): Promise<IdempotencyKey | null> {
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: {
        route: row.route,
        requestHash: row.requestHash,
        statusCode: null,
        response: null,
        claimId: sql`gen_random_uuid()`,
        createdAt: sql`now()`,
      },
      setWhere: sql`${ageOver(KEY_TTL_SECONDS)} or (${idempotencyKeys.statusCode} is null and ${ageOver(STALE_RUNNING_SECONDS)})`,
    })
    .returning();
  return claimed ?? null;
}

export async function findIdempotencyKey(db: DbOrTx, k: KeyOf): Promise<IdempotencyKey | null> {
  const [row] = await db.select().from(idempotencyKeys).where(byUserKey(k));
  return row ?? null;
}

/** Frees this claim of the key (the request failed in a way a retry may repeat). */
export async function releaseIdempotencyKey(db: DbOrTx, k: KeyOf, claimId: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(byUserKey(k), eq(idempotencyKeys.claimId, claimId)));
}

/** Records the final answer that replays of the key get back, if the claim is still ours. */
export async function recordIdempotentResponse(
  db: DbOrTx,
  k: KeyOf,
  claimId: string,
  answer: { statusCode: number; response: unknown },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set(answer)
    .where(and(byUserKey(k), eq(idempotencyKeys.claimId, claimId)));
}

/** Deletes keys past their time to live (run by reconcile); returns how many. */
export async function deleteExpiredIdempotencyKeys(db: DbOrTx): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(ageOver(KEY_TTL_SECONDS))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
