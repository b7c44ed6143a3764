import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { rateLimits } from "@/db/schema";
import { AppError } from "@/lib/errors";

// Fixed-window counters in Postgres, so a limit holds across every app process.

export type Window = { bucket: string; limit: number; windowMs: number };

function windowStart(windowMs: number, now: number): Date {
  return new Date(Math.floor(now / windowMs) * windowMs);
}

function retryAfterSeconds(windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((windowStart(windowMs, now).getTime() + windowMs - now) / 1000));
}

/** Throws 429 `rate_limited` (with Retry-After) once the bucket has reached its limit. */
export async function assertUnderLimit(db: DbOrTx, w: Window, now = Date.now()): Promise<void> {
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(
      and(
        eq(rateLimits.bucket, w.bucket),
        eq(rateLimits.windowStart, windowStart(w.windowMs, now)),
      ),
    );
  if (row && row.count >= w.limit) {
    const retry = retryAfterSeconds(w.windowMs, now);
    throw new AppError(
      "rate_limited",
      `Too many attempts. Try again in ${Math.ceil(retry / 60)} minute(s).`,
      {
        headers: { "Retry-After": String(retry) },
        details: { retryAfterSeconds: retry },
      },
    );
  }
}

/** Counts one event in the bucket's current window (an atomic upsert). */
export async function countEvent(db: DbOrTx, w: Window, now = Date.now()): Promise<number> {
  const [row] = await db
    .insert(rateLimits)
    .values({ bucket: w.bucket, windowStart: windowStart(w.windowMs, now), count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.bucket, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  return row?.count ?? 1;
}

/** The client a request comes from, for per-client limits (first proxy hop, else "direct"). */
export function clientKey(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || req.headers.get("x-real-ip")?.trim() || "direct";
}
