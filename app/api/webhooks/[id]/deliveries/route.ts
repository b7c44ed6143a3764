import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { pageQuery } from "@/lib/pagination";
import { listDeliveries } from "@/lib/webhooks/endpoints";

const params = z.object({ id: z.uuid("must be a UUID") });

// GET /api/webhooks/:id/deliveries – the endpoint's delivery log, newest first (cursor-paginated)
export const GET = route(
  { auth: requireUser, scope: "webhooks", params, query: pageQuery },
  async ({ user, params, query }) => {
    const page = await listDeliveries(await getDb(), user, params.id, query);
    return Response.json({ deliveries: page.items, nextCursor: page.nextCursor });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
