import { createApiKey, createApiKeyBody, listApiKeysPage } from "@/lib/auth/api-keys";
import { requireSessionUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { pageQuery } from "@/lib/pagination";

// Key management needs a signed-in session: an API key cannot mint or list keys.

// POST /api/keys – create an API key; the response is the only time the key is shown
export const POST = route(
  { auth: requireSessionUser, body: createApiKeyBody },
  async ({ user, body }) => {
    const { key, apiKey } = await createApiKey(await getDb(), { userId: user.id, ...body });
    return Response.json(
      { key, apiKey },
      { status: 201, headers: { "cache-control": "no-store" } },
    );
  },
);

// GET /api/keys – the caller's keys, newest first (cursor-paginated; never the secrets)
export const GET = route(
  { auth: requireSessionUser, query: pageQuery },
  async ({ user, query }) => {
    const page = await listApiKeysPage(await getDb(), { userId: user.id, page: query });
    return Response.json({ keys: page.items, nextCursor: page.nextCursor });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
