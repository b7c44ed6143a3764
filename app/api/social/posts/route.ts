import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { myPosts, publishBody, publishPost } from "@/lib/social/posts";

// GET /api/social/posts – the caller's sandbox posts, newest first
export const GET = route({ auth: requireUser }, async ({ user }) => {
  return Response.json({ posts: await myPosts(await getDb(), user) });
});

// POST /api/social/posts – publish a post on the sandbox platform; answers its URL
export const POST = route({ auth: requireUser, body: publishBody }, async ({ user, body }) => {
  const post = await publishPost(await getDb(), user, body);
  return Response.json({ post }, { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
