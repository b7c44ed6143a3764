import { requireSessionUser, requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import {
  deleteHandleQuery,
  getHandles,
  putHandle,
  putHandleBody,
  removeHandle,
} from "@/lib/profile/handles";

// GET /api/profile/handles – the caller's declared platform handles
export const GET = route({ auth: requireUser, scope: "read" }, async ({ user }) => {
  return Response.json({ handles: await getHandles(await getDb(), user) });
});

// PUT /api/profile/handles – declare or change the caller's handle on one platform (a
// session only: the handle decides whose posts count as the creator's)
export const PUT = route(
  { auth: requireSessionUser, body: putHandleBody },
  async ({ user, body }) => {
    return Response.json({ handle: await putHandle(await getDb(), user, body) });
  },
);

// DELETE /api/profile/handles?platform=… – remove the caller's handle on one platform
export const DELETE = route(
  { auth: requireSessionUser, query: deleteHandleQuery },
  async ({ user, query }) => {
    await removeHandle(await getDb(), user, query.platform);
    return new Response(null, { status: 204 });
  },
);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
