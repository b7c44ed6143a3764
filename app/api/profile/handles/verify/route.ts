import { requireSessionUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { verifyHandle, verifyHandleBody } from "@/lib/profile/verify-handle";

// POST /api/profile/handles/verify – check a post by the handle for its one-time code and
// mark the handle verified (a session only, like declaring it): 409 handle_unverified when
// the post does not prove it
export const POST = route(
  { auth: requireSessionUser, body: verifyHandleBody },
  async ({ user, body }) => {
    return Response.json({ handle: await verifyHandle(await getDb(), user, body) });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
