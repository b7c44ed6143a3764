import { requireSessionUser } from "@/lib/auth/caller";
import { accountSignInMethods } from "@/lib/auth/identities";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/auth/identities – the ways the caller's account signs in, and what it can still
// link (account management: a session only). Linking runs through the browser sign-in
// flow (/auth/signin/<method> with link=1), from the profile.
export const GET = route({ auth: requireSessionUser }, async ({ user }) =>
  Response.json(await accountSignInMethods(await getDb(), user), {
    headers: { "cache-control": "no-store" },
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
