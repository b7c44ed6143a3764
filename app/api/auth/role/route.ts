import { setProfileType } from "@/db/queries/users";
import { requireSessionUser } from "@/lib/auth/caller";
import { roleBody } from "@/lib/auth/schemas";
import { toUserJson } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/auth/role – switch the caller's active role (access still follows ownership).
// Account management: a session only (an API key or identity token gets 403).
export const POST = route({ auth: requireSessionUser, body: roleBody }, async ({ user, body }) => {
  const updated = await setProfileType(await getDb(), {
    userId: user.id,
    profileType: body.profileType,
  });
  if (!updated) throw new AppError("invalid_token", "The session's user no longer exists.");
  return Response.json({ user: toUserJson(updated) });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
