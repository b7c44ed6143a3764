import { getDb } from "@/db/client";
import { getUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { assertSameOriginWrite } from "@/lib/auth/same-origin";
import { bearerToken, readSessionToken, sessionCookieValue } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";

// Resolves the caller of an authed handler: the bearer token first (third parties), else
// the session cookie (the browser). The user is loaded from the database on every request,
// so a deleted user's still-unexpired token stops working at once, and so does a token
// from before the user's last sign-out (its session version is behind the user's).
// This is the one place the cookie is accepted, so it is also where a cookie-authenticated
// write must prove it comes from this site (lib/auth/same-origin.ts).

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** The signed-in caller; 401 unauthenticated without credentials, invalid_token when bad. */
export async function requireUser(req: Request): Promise<User> {
  const bearer = bearerToken(req);
  // A presented bearer token is decisive: a bad one is an error even if a cookie is sent.
  if (bearer !== undefined) return userFromSessionToken(bearer);
  const cookie = sessionCookieValue(req);
  if (cookie) {
    assertSameOriginWrite(req);
    return userFromSessionToken(cookie);
  }
  throw new AppError(
    "unauthenticated",
    "Sign in first: send a bearer token or the session cookie.",
  );
}

/**
 * The caller when there is one, else null. A bad bearer token is still a 401 (the client
 * asked to be someone); a stale cookie just means signed out.
 */
export async function optionalUser(req: Request): Promise<User | null> {
  if (bearerToken(req) !== undefined) return requireUser(req);
  if (!sessionCookieValue(req)) return null;
  try {
    return await requireUser(req);
  } catch (err) {
    if (err instanceof AppError && err.code === "invalid_token") return null;
    throw err;
  }
}
