import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "@/db/client";
import { authSecret } from "@/lib/auth/secret";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { releaseAttempt, reserveAttempt, type Window } from "@/lib/rate-limit";

// The demo gate: a passphrase held only on the server. Attempts are counted in the database
// per client (lib/rate-limit.ts clientKey) before the passphrase is even compared, so at
// most 10 wrong guesses per 15 minutes are ever evaluated, however many arrive at once and
// across processes; a right passphrase hands its attempt back. Over the limit, even the
// right passphrase is refused until the window passes.

export const DEMO_COOKIE = "milestone.demo-unlock";
const MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
/** Wrong passphrases evaluated per client and window; further attempts are 429. */
export const UNLOCK_LIMIT = 10;
export const UNLOCK_WINDOW_MS = 15 * 60 * 1000;
const failureWindow = (client: string): Window => ({
  bucket: `demo-unlock:${client}`,
  limit: UNLOCK_LIMIT,
  windowMs: UNLOCK_WINDOW_MS,
});

function digest(value: string): Buffer {
  // HMAC both sides to equal-length digests so the comparison is constant-time
  // whatever the lengths of the inputs.
  return createHmac("sha256", "milestone-demo-compare").update(value, "utf8").digest();
}

export function passphraseMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function sign(payload: string): string {
  return createHmac("sha256", authSecret()).update(`demo-unlock:${payload}`).digest("base64url");
}

/** The value of the unlock cookie: an expiry and its signature. */
export function unlockToken(now = Date.now()): string {
  const expires = String(Math.floor(now / 1000) + MAX_AGE_SECONDS);
  return `${expires}.${sign(expires)}`;
}

export function isValidUnlockToken(token: string | undefined, now = Date.now()): boolean {
  if (!token) return false;
  const [expires, signature] = token.split(".");
  if (!expires || !signature || !/^\d+$/.test(expires)) return false;
  if (Number(expires) * 1000 < now) return false;
  const expected = Buffer.from(sign(expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Pages are gated only when a passphrase is configured. */
export function demoGateEnabled(): boolean {
  return Boolean(env().DEMO_PASSPHRASE);
}

export function unlockCookie(token: string): string {
  const secure = env().NODE_ENV === "production" && !env().APP_URL?.startsWith("http://");
  return `${DEMO_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${MAX_AGE_SECONDS}${secure ? "; Secure" : ""}`;
}

/** Checks a passphrase for a client; returns the cookie value on success. */
export async function unlockDemo(
  db: Db,
  client: string,
  passphrase: string,
  now = Date.now(),
): Promise<string> {
  const expected = env().DEMO_PASSPHRASE;
  if (!expected) throw new AppError("not_found", "There is no demo gate on this deployment.");
  const attempt = await reserveAttempt(db, failureWindow(client), now);
  if (!passphraseMatches(passphrase, expected))
    throw new AppError("invalid_passphrase", "That passphrase is not right.");
  await releaseAttempt(db, attempt);
  return unlockToken(now);
}
