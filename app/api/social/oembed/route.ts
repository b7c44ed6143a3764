import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { oembedFor, oembedQuery } from "@/lib/social/posts";

// GET /api/social/oembed?url=… – oEmbed of a sandbox post (public, as a platform's is)
export const GET = route({ query: oembedQuery }, async ({ query }) => {
  return Response.json(await oembedFor(await getDb(), query.url));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
