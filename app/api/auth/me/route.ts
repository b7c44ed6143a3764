import { requireUser } from "@/lib/auth/caller";
import { toUserJson } from "@/lib/auth/users";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/auth/me – the signed-in user (restores a session on page load)
export const GET = route({ auth: requireUser, scope: "read" }, async ({ user }) =>
  Response.json({ user: toUserJson(user) }, { headers: { "cache-control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
