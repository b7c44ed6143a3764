import type { DbOrTx } from "@/db/client";
import { decrementWindow, deleteWindowsBefore, incrementWindows } from "@/db/queries/rate-limits";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// Fixed-window counters in Postgres, so a limit holds across every app process. An attempt
// is counted before it is evaluated (one atomic upsert returns the new count), so however
// many requests arrive at once, at most `limit` of them get past the counter per window.

export type Window = { bucket: string; limit: number; windowMs: number };

/** One counted attempt: the window it was counted in (to hand it back) and the count. */
export type Reservation = { bucket: string; windowStart: Date; count: number };

function windowStart(windowMs: number, now: number): Date {
  return new Date(Math.floor(now / windowMs) * windowMs);
}

function retryAfterSeconds(windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((windowStart(windowMs, now).getTime() + windowMs - now) / 1000));
}

function rateLimited(w: Window, now: number): AppError {
  const retry = retryAfterSeconds(w.windowMs, now);
  return new AppError(
    "rate_limited",
    `Too many attempts. Try again in ${Math.ceil(retry / 60)} minute(s).`,
    { headers: { "Retry-After": String(retry) }, details: { retryAfterSeconds: retry } },
  );
}

/**
 * Counts an attempt in the bucket's current window (an atomic upsert) and throws 429
 * `rate_limited` (with Retry-After) when it is over the limit. Call it before doing the
 * work; attempts that should not use up the allowance are handed back with `release`.
 */
export async function reserveAttempt(
  db: DbOrTx,
  w: Window,
  now = Date.now(),
): Promise<Reservation> {
  const start = windowStart(w.windowMs, now);
  const [row] = await incrementWindows(db, [{ bucket: w.bucket, windowStart: start }]);
  const count = row?.count ?? 1;
  if (count > w.limit) throw rateLimited(w, now);
  return { bucket: w.bucket, windowStart: start, count };
}

/** Hands a reserved attempt back (in the window it was counted in). */
export async function releaseAttempt(db: DbOrTx, r: Reservation): Promise<void> {
  await decrementWindow(db, r);
}

/**
 * The client a request comes from, for per-client limits. X-Forwarded-For is believed only
 * as far as TRUSTED_PROXY hops vouch for it: with N trusted proxies each appending the
 * address it saw, the client is the N-th entry from the right; entries further left are
 * whatever the client sent. Without a trusted proxy there is nothing to go on: `next start`
 * keeps a client's own X-Forwarded-For (and only fills it with the socket address when it
 * is absent), and route handlers never see the socket — so every client shares one bucket.
 */
export function clientKey(req: Request, trustedHops = env().TRUSTED_PROXY): string {
  if (trustedHops <= 0) return "any-client";
  const hops = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  const client = hops[hops.length - trustedHops];
  // Fewer entries than trusted proxies: the request did not come through them all.
  return client ? `ip:${client.toLowerCase()}` : "unproxied";
}

/** Windows older than this are dead for every limit here (the longest window is 15 minutes). */
const KEEP_WINDOWS_MS = 24 * 60 * 60 * 1000;
/** One request in this many also deletes dead windows, so the table stays small unattended. */
const PRUNE_ONE_IN = 500;

/** Deletes counters whose window started before `before`. */
export async function pruneWindows(db: DbOrTx, before: Date): Promise<void> {
  await deleteWindowsBefore(db, before);
}

/** What a request has left in its tightest window, for the RateLimit-* response headers. */
export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** RateLimit-Limit / -Remaining / -Reset (IETF draft, delta seconds) for a state. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(s.limit),
    "RateLimit-Remaining": String(s.remaining),
    "RateLimit-Reset": String(s.resetSeconds),
  };
}

/**
 * Counts one request in several windows at once (one atomic multi-row upsert, so one round
 * trip for a per-key and a per-user limit) and throws 429 `rate_limited`, with Retry-After
 * and RateLimit-* headers, when any is over its limit. Returns the tightest window's state.
 */
export async function countRequest(
  db: DbOrTx,
  windows: Window[],
  now = Date.now(),
): Promise<RateLimitState> {
  const rows = await incrementWindows(
    db,
    windows.map((w) => ({ bucket: w.bucket, windowStart: windowStart(w.windowMs, now) })),
  );
  let tightest: (RateLimitState & { over: boolean }) | null = null;
  for (const w of windows) {
    const count = rows.find((r) => r.bucket === w.bucket)?.count ?? 1;
    const state = {
      limit: w.limit,
      remaining: Math.max(0, w.limit - count),
      resetSeconds: retryAfterSeconds(w.windowMs, now),
      over: count > w.limit,
    };
    if (
      !tightest ||
      (state.over && !tightest.over) ||
      (state.over === tightest.over && state.remaining < tightest.remaining)
    )
      tightest = state;
  }
  if (!tightest) throw new Error("countRequest needs at least one window");
  if (Math.random() * PRUNE_ONE_IN < 1)
    void pruneWindows(db, new Date(now - KEEP_WINDOWS_MS)).catch((err: unknown) =>
      log.warn("pruning rate-limit windows failed", { err }),
    );
  const { over, ...state } = tightest;
  if (over) {
    throw new AppError(
      "rate_limited",
      "Too many requests. Slow down and retry after Retry-After seconds.",
      {
        headers: { ...rateLimitHeaders(state), "Retry-After": String(state.resetSeconds) },
        details: { retryAfterSeconds: state.resetSeconds, limit: state.limit },
      },
    );
  }
  return state;
}
