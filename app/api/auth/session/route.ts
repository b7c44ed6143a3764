import { revokeSessions } from "@/db/queries/users";
import { requireSessionUser } from "@/lib/auth/caller";
import { sessionBody } from "@/lib/auth/schemas";
import { clearedSessionCookie, sessionCookie } from "@/lib/auth/session";
import { signIn } from "@/lib/auth/sign-in";
import { toUserJson } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/auth/session – verify an identity token, upsert the user, start a session
export const POST = route({ body: sessionBody }, async ({ body }) => {
  const { user, session } = await signIn(await getDb(), body);
  return Response.json(
    { user: toUserJson(user), token: session.token, expiresAt: session.expiresAt.toISOString() },
    { headers: { "set-cookie": sessionCookie(session.token), "cache-control": "no-store" } },
  );
});

// Signing out with a token that no longer works (or with nothing) is already done: not an
// error. Signing out everywhere is session management: an API key or a bare identity token
// gets 403 forbidden (requireSessionUser), even a write-scoped key.
async function signingOutUser(req: Request) {
  try {
    return await requireSessionUser(req);
  } catch (err) {
    if (err instanceof AppError && (err.code === "invalid_token" || err.code === "unauthenticated"))
      return null;
    throw err;
  }
}

// DELETE /api/auth/session – sign out: revoke every session token of the caller (bearer or
// cookie) and clear the cookie
export const DELETE = route({ auth: signingOutUser }, async ({ user }) => {
  if (user) await revokeSessions(await getDb(), user.id);
  return Response.json(
    { signedOut: true },
    { headers: { "set-cookie": clearedSessionCookie(), "cache-control": "no-store" } },
  );
});

export const { GET, PUT, PATCH, HEAD, OPTIONS } = methodNotAllowed(["POST", "DELETE"]);
