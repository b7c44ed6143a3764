import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { removePost } from "@/lib/social/posts";

// DELETE /api/social/posts/:id – delete one of the caller's sandbox posts
export const DELETE = route(
  { auth: requireUser, scope: "write", params: idParams },
  async ({ user, params }) => {
    await removePost(await getDb(), user, params.id);
    return new Response(null, { status: 204 });
  },
);

export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
