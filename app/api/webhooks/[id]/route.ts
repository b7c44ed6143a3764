import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { updateEndpointBody } from "@/lib/webhooks/schemas";

const params = z.object({ id: z.uuid("must be a UUID") });

// GET /api/webhooks/:id – one of the caller's endpoints (never its secret)
export const GET = route(
  { auth: requireUser, scope: "webhooks", params },
  async ({ user, params }) =>
    Response.json({ endpoint: await getEndpoint(await getDb(), user, params.id) }),
);

// PATCH /api/webhooks/:id – change url, eventTypes, or enable/disable it
export const PATCH = route(
  { auth: requireUser, scope: "webhooks", params, body: updateEndpointBody },
  async ({ user, params, body }) =>
    Response.json({ endpoint: await updateEndpoint(await getDb(), user, params.id, body) }),
);

// DELETE /api/webhooks/:id – remove it and its delivery log
export const DELETE = route(
  { auth: requireUser, scope: "webhooks", params },
  async ({ user, params }) => {
    await deleteEndpoint(await getDb(), user, params.id);
    return Response.json({ deleted: true });
  },
);

export const { POST, PUT, OPTIONS } = methodNotAllowed(["GET", "PATCH", "DELETE"]);
