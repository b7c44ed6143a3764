import { requireSessionUser, requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { getProfile, profilePatchBody, updateProfile } from "@/lib/users/profile";

// GET /api/profile – the caller's display name (shown on deals instead of the e-mail)
export const GET = route({ auth: requireUser, scope: "read" }, async ({ user }) =>
  Response.json(
    { profile: await getProfile(await getDb(), user) },
    { headers: { "cache-control": "no-store" } },
  ),
);

// PATCH /api/profile { displayName } – set it (null or "" removes it); a session only
export const PATCH = route(
  { auth: requireSessionUser, body: profilePatchBody },
  async ({ user, body }) =>
    Response.json({ profile: await updateProfile(await getDb(), user, body) }),
);

export const { POST, PUT, DELETE, OPTIONS } = methodNotAllowed(["GET", "PATCH"]);
