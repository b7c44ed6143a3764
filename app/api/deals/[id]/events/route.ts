import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { listDealEvents } from "@/lib/events/events";
import { methodNotAllowed, route } from "@/lib/http";
import { pageQuery } from "@/lib/pagination";

// GET /api/deals/:id/events – the deal's activity log, oldest first (cursor-paginated)
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams, query: pageQuery },
  async ({ user, params, query }) => {
    const page = await listDealEvents(await getDb(), user, params.id, query);
    return Response.json({ events: page.items, nextCursor: page.nextCursor });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
