import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { pageQuery } from "@/lib/pagination";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { createEndpointBody } from "@/lib/webhooks/schemas";

// GET /api/webhooks – the caller's webhook endpoints, newest first (cursor-paginated)
export const GET = route(
  { auth: requireUser, scope: "webhooks", query: pageQuery },
  async ({ user, query }) => {
    const page = await listEndpoints(await getDb(), user, query);
    return Response.json({ endpoints: page.items, nextCursor: page.nextCursor });
  },
);

// POST /api/webhooks – register an endpoint; the signing secret is in this answer only
export const POST = route(
  { auth: requireUser, scope: "webhooks", body: createEndpointBody },
  async ({ user, body }) =>
    Response.json(await createEndpoint(await getDb(), user, body), { status: 201 }),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
