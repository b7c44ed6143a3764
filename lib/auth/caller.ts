import { findUserByAnyIdentity, getUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { pinVersion } from "@/lib/api/versions";
import { assertKeyScope, authenticateApiKey, looksLikeApiKey } from "@/lib/auth/api-keys";
import { type IdentityConfig, identityConfig, verifyIdentityToken } from "@/lib/auth/identity";
import { assertSameOriginWrite } from "@/lib/auth/same-origin";
import { bearerToken, readSessionToken, sessionCookieValue } from "@/lib/auth/session";
import { userForIdentity } from "@/lib/auth/sign-in";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { type AuthNeed, scopedAuthenticator } from "@/lib/http";
import { countRequest, rateLimitHeaders, type Window } from "@/lib/rate-limit";
import { addResponseHeaders } from "@/lib/response-headers";

// Resolves the caller of an authed handler: the bearer token first (third parties), else
// the session cookie (the browser). The user is loaded from the database on every request,
// so a deleted user's still-unexpired token stops working at once, and so does a token
// from before the user's last sign-out (its session version is behind the user's).
// This is the one place the cookie is accepted, so it is also where a cookie-authenticated
// write must prove it comes from this site (lib/auth/same-origin.ts).
//
// A bearer is one of three kinds, told apart by shape alone (no kind can look like another):
//   `mk_…`            an API key (lib/auth/api-keys.ts): rate limits apply, and the scope
//                     the route declared (route({ scope }), handed here as AuthNeed);
//   five dot-separated segments   a session token (a JWE from POST /api/auth/session);
//   three dot-separated segments  the identity provider's ID token (a JWS), verified exactly
//                     as POST /api/auth/session verifies it and mapped to the same user.
// Anything else is 401 invalid_token. Only API keys are scope-limited: a session or identity
// token acts as the user on every route it reaches.

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RATE_WINDOW_MS = 60_000;

export type BearerKind = "api_key" | "session" | "identity" | "unknown";

export function bearerKind(token: string): BearerKind {
  if (looksLikeApiKey(token)) return "api_key";
  const segments = token.split(".").length;
  if (segments === 5) return "session";
  if (segments === 3) return "identity";
  return "unknown";
}

async function userFromSessionToken(token: string): Promise<User> {
  const claims = token ? await readSessionToken(token) : null;
  if (!claims || !uuidPattern.test(claims.userId))
    throw new AppError("invalid_token", "The session token is invalid or expired.");
  const user = await getUserById(await getDb(), claims.userId);
  if (!user) throw new AppError("invalid_token", "The session's user no longer exists.");
  if (claims.sessionVersion !== user.sessionVersion)
    throw new AppError("invalid_token", "This session was signed out. Sign in again.");
  return user;
}

/** Per-key and per-user request limits (rows in PostgreSQL, shared by every instance). */
async function countAgainstLimits(req: Request, windows: Window[]): Promise<void> {
  const state = await countRequest(await getDb(), windows);
  addResponseHeaders(req, rateLimitHeaders(state));
}

const userWindow = (userId: string): Window => ({
  bucket: `user:${userId}`,
  limit: env().USER_RATE_LIMIT,
  windowMs: RATE_WINDOW_MS,
});

async function userFromApiKey(req: Request, token: string, need: AuthNeed): Promise<User> {
  const { user, key } = await authenticateApiKey(await getDb(), token);
  assertKeyScope(key, need.scope);
  pinVersion(req, key.apiVersion); // answered in the key's API version (lib/api/versions.ts)
  await countAgainstLimits(req, [
    { bucket: `api-key:${key.id}`, limit: env().API_KEY_RATE_LIMIT, windowMs: RATE_WINDOW_MS },
    userWindow(user.id),
  ]);
  return user;
}

function identityConfigOr401(): IdentityConfig {
  try {
    return identityConfig();
  } catch {
    throw new AppError("invalid_token", "No identity provider is configured to accept this token.");
  }
}

async function userFromIdentityToken(req: Request, token: string): Promise<User> {
  const config = identityConfigOr401();
  const identity = await verifyIdentityToken(token, config);
  const db = await getDb();
  // The usual case (a known identity: the account's first or one it linked) is a read; the
  // first use, or a changed e-mail, goes through the same step as POST /api/auth/session.
  const known = await findUserByAnyIdentity(db, identity);
  const first = known?.issuer === identity.issuer && known.subject === identity.subject;
  const user =
    known && (!first || known.email === identity.email)
      ? known
      : await userForIdentity(db, identity, config);
  await countAgainstLimits(req, [userWindow(user.id)]);
  return user;
}

async function userFromBearer(req: Request, token: string, need: AuthNeed): Promise<User> {
  switch (bearerKind(token)) {
    case "api_key":
      return userFromApiKey(req, token, need);
    case "session":
      return userFromSessionToken(token);
    case "identity":
      return userFromIdentityToken(req, token);
    default:
      throw new AppError(
        "invalid_token",
        "The bearer token is not a session token, API key or identity token.",
      );
  }
}

/**
 * The signed-in caller; 401 unauthenticated without credentials, invalid_token when bad.
 * An API key must carry `need.scope` (403 insufficient_scope); without one it is refused.
 * Routes take it as `route({ auth: requireUser, scope })`, which hands the scope over.
 */
export const requireUser = scopedAuthenticator(async function requireUser(
  req: Request,
  need: AuthNeed,
): Promise<User> {
  const bearer = bearerToken(req);
  // A presented bearer token is decisive: a bad one is an error even if a cookie is sent.
  if (bearer !== undefined) return userFromBearer(req, bearer, need);
  const cookie = sessionCookieValue(req);
  if (cookie) {
    assertSameOriginWrite(req);
    return userFromSessionToken(cookie);
  }
  throw new AppError(
    "unauthenticated",
    "Sign in first: send a bearer token or the session cookie.",
  );
});

/** No API key accepted (its scope is not asked for): sessions and identity tokens only. */
const NO_API_KEY: AuthNeed = { scope: undefined };

/**
 * The caller signed in with a session (cookie or session bearer token), for what an API key
 * or a bare identity token must not do: account and session management — API keys, signing
 * out everywhere, the role, the payout wallet, the display name and platform handles (a
 * leaked key must not be able to take the account over). 403 `forbidden` for those.
 */
export async function requireSessionUser(req: Request): Promise<User> {
  const bearer = bearerToken(req);
  const kind = bearer === undefined ? null : bearerKind(bearer);
  if (bearer !== undefined && kind !== "session") {
    // Still check it: a bad credential is a 401, not a 403 (and a good key is not counted).
    if (kind === "api_key") await authenticateApiKey(await getDb(), bearer);
    else if (kind === "identity") await verifyIdentityToken(bearer, identityConfigOr401());
    else await userFromBearer(req, bearer, NO_API_KEY);
    throw new AppError(
      "forbidden",
      "Account and session management (API keys, sign-out, role, wallet, profile, handles) needs a signed-in session, not an API key or identity token.",
    );
  }
  return requireUser(req, NO_API_KEY);
}

/**
 * The caller when there is one, else null. A bad bearer token is still a 401 (the client
 * asked to be someone); a stale cookie just means signed out.
 */
export async function optionalUser(
  req: Request,
  need: AuthNeed = NO_API_KEY,
): Promise<User | null> {
  if (bearerToken(req) !== undefined) return requireUser(req, need);
  if (!sessionCookieValue(req)) return null;
  try {
    return await requireUser(req, need);
  } catch (err) {
    if (err instanceof AppError && err.code === "invalid_token") return null;
    throw err;
  }
}
