import { decode, encode } from "next-auth/jwt";
import { authSecret } from "@/lib/auth/secret";
import { env, isProduction } from "@/lib/env";

// Session tokens are next-auth JWTs (encrypted with a key derived from the auth secret,
// via next-auth's own encode/decode) carrying the user id as `sub` and the user's session
// version as `sv`: sign-out increments the version, which revokes every token issued before. The same token is the
// httpOnly cookie for the browser and the `Authorization: Bearer` credential for third
// parties. next-auth's route handler is not mounted: its /api/auth/[...nextauth] catch-all
// would shadow the contract's /api/auth/session|me|role, and encode/decode is all we need.

/**
 * Our own name rather than next-auth's default: its name flips to a `__Secure-` prefix with
 * NEXTAUTH_URL, and nothing here reads cookies through next-auth.
 */
export const SESSION_COOKIE = "milestone.session-token";

export type SessionToken = { token: string; expiresAt: Date };

/** A session token for the user at its current session version (users.session_version). */
export async function createSessionToken(
  userId: string,
  sessionVersion = 0,
): Promise<SessionToken> {
  const maxAge = env().SESSION_MAX_AGE_SECONDS;
  // encode() sets exp = now + maxAge (in whole seconds); report the same instant.
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + maxAge) * 1000);
  const token = await encode({
    token: { sub: userId, sv: sessionVersion },
    secret: authSecret(),
    maxAge,
  });
  return { token, expiresAt };
}

export type SessionClaims = { userId: string; sessionVersion: number };

/**
 * Tokens this process has decrypted, with their claims and expiry (ms). Decrypting one costs
 * a key derivation (HKDF) and an AES-GCM decryption, about a fifth of a millisecond, on every
 * request a browser or a client makes with the same token; a token's claims never change, so
 * they are kept (at most SESSION_CACHE_MAX, the oldest dropped first). Revocation is unaffected:
 * the caller still compares the session version with the user's row on every request.
 */
const decoded = new Map<string, { claims: SessionClaims; expiresAt: number; secret: string }>();
const SESSION_CACHE_MAX = 1000;

/** The user id and session version in a token, or null when it is forged, expired or malformed. */
export async function readSessionToken(token: string): Promise<SessionClaims | null> {
  try {
    // Inside the try, as before the cache: a secret that cannot be read refuses the token.
    const secret = authSecret();
    const hit = decoded.get(token);
    if (hit && hit.secret === secret && Date.now() < hit.expiresAt) return hit.claims;
    // Past its expiry (or another secret's): decrypted again, so it is answered exactly as
    // decode() answers it (which allows its clock tolerance beyond exp).
    if (hit) decoded.delete(token);
    const payload = await decode({ token, secret });
    if (typeof payload?.sub !== "string") return null;
    const sv = payload.sv ?? 0;
    if (typeof sv !== "number" || !Number.isInteger(sv)) return null;
    const claims = { userId: payload.sub, sessionVersion: sv };
    // decode() refused an expired token; one without exp is not kept (nothing says until when).
    if (typeof payload.exp === "number") {
      if (decoded.size >= SESSION_CACHE_MAX) decoded.delete(decoded.keys().next().value as string);
      decoded.set(token, { claims, expiresAt: payload.exp * 1000, secret });
    }
    return claims;
  } catch {
    return null;
  }
}

function cookieAttributes(maxAge: number): string {
  const secure = isProduction() ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; ${cookieAttributes(env().SESSION_MAX_AGE_SECONDS)}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${cookieAttributes(0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** The session cookie's value from a request, if present. */
export function sessionCookieValue(req: Request): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value || null;
    }
  }
  return null;
}

/**
 * The bearer token from the Authorization header: undefined when there is none, "" when
 * it is empty. Other schemes are ignored (Basic auth in front of a staging site must not
 * hide the session cookie).
 */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.get("authorization")?.trim();
  if (!header) return undefined;
  const match = /^Bearer(?:[ \t]+(.*))?$/i.exec(header);
  if (!match) return undefined;
  return match[1]?.trim() ?? "";
}
