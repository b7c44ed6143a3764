import {
  apiKeyParams,
  renameApiKeyBody,
  renameUserApiKey,
  revokeUserApiKey,
} from "@/lib/auth/api-keys";
import { requireSessionUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// DELETE /api/keys/:id – revoke one of the caller's keys (it stops working at once)
export const DELETE = route(
  { auth: requireSessionUser, params: apiKeyParams },
  async ({ user, params }) => {
    const apiKey = await revokeUserApiKey(await getDb(), { userId: user.id, id: params.id });
    return Response.json({ apiKey });
  },
);

// PATCH /api/keys/:id – rename a key that is not revoked
export const PATCH = route(
  { auth: requireSessionUser, params: apiKeyParams, body: renameApiKeyBody },
  async ({ user, params, body }) => {
    const apiKey = await renameUserApiKey(await getDb(), {
      userId: user.id,
      id: params.id,
      name: body.name,
    });
    return Response.json({ apiKey });
  },
);

export const { GET, HEAD, POST, PUT, OPTIONS } = methodNotAllowed(["DELETE", "PATCH"]);
