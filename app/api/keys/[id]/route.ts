import {
  apiKeyParams,
  revokeUserApiKey,
  updateApiKeyBody,
  updateUserApiKey,
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

// PATCH /api/keys/:id – rename a key that is not revoked, re-pin its API version, change its metadata
export const PATCH = route(
  { auth: requireSessionUser, params: apiKeyParams, body: updateApiKeyBody },
  async ({ user, params, body }) => {
    const apiKey = await updateUserApiKey(await getDb(), {
      userId: user.id,
      id: params.id,
      ...body,
    });
    return Response.json({ apiKey });
  },
);

export const { GET, HEAD, POST, PUT, OPTIONS } = methodNotAllowed(["DELETE", "PATCH"]);
