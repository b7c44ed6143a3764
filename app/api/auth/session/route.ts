import { getDb } from "@/db/client";
import { sessionBody } from "@/lib/auth/schemas";
import { clearedSessionCookie, sessionCookie } from "@/lib/auth/session";
import { signIn } from "@/lib/auth/sign-in";
import { toUserJson } from "@/lib/auth/users";
import { route } from "@/lib/http";

// POST /api/auth/session – verify an identity token, upsert the user, start a session
export const POST = route({ body: sessionBody }, async ({ body }) => {
  const { user, session } = await signIn(await getDb(), body);
  return Response.json(
    { user: toUserJson(user), token: session.token, expiresAt: session.expiresAt.toISOString() },
    { headers: { "set-cookie": sessionCookie(session.token), "cache-control": "no-store" } },
  );
});

// DELETE /api/auth/session – sign out: clear the session cookie
export const DELETE = route({}, async () =>
  Response.json({ signedOut: true }, { headers: { "set-cookie": clearedSessionCookie() } }),
);
