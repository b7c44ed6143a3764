import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { pageQuery } from "@/lib/pagination";
import { myPosts, publishBody, publishPost } from "@/lib/social/posts";

// GET /api/social/posts – the caller's sandbox posts, newest first (cursor-paginated)
export const GET = route(
  { auth: requireUser, scope: "read", query: pageQuery },
  async ({ user, query }) => {
    const page = await myPosts(await getDb(), user, query);
    return Response.json({ posts: page.items, nextCursor: page.nextCursor });
  },
);

// POST /api/social/posts – publish a post on the sandbox platform; answers its URL
export const POST = route(
  { auth: requireUser, scope: "write", body: publishBody },
  async ({ user, body }) => {
    const post = await publishPost(await getDb(), user, body);
    return Response.json({ post }, { status: 201 });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
