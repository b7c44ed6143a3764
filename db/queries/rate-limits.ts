import { and, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { rateLimits } from "@/db/schema";

// Fixed-window counters (lib/rate-limit.ts): one row per bucket and window start.

/** Counts one attempt in each (bucket, window) in one atomic upsert; returns the new counts. */
export async function incrementWindows(
  db: DbOrTx,
  windows: { bucket: string; windowStart: Date }[],
): Promise<{ bucket: string; count: number }[]> {
  return db
    .insert(rateLimits)
    .values(windows.map((w) => ({ bucket: w.bucket, windowStart: w.windowStart, count: 1 })))
    .onConflictDoUpdate({
      target: [rateLimits.bucket, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ bucket: rateLimits.bucket, count: rateLimits.count });
}

/** Hands one counted attempt back (never below zero). */
export async function decrementWindow(
  db: DbOrTx,
  w: { bucket: string; windowStart: Date },
): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.bucket, w.bucket), eq(rateLimits.windowStart, w.windowStart)));
}

/** Deletes counters whose window started before `before`. */
export async function deleteWindowsBefore(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, before));
}
