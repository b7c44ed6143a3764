import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { createDeal, listDeals } from "@/lib/deals/deals";
import { createDealBody, dealListQuery } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/deals – the caller's deals (brand or creator); ?open=1 – open deals to take.
// A page: { deals, nextCursor }; ?limit, ?cursor, ?status, ?platform, ?search, ?sort.
export const GET = route(
  { auth: requireUser, scope: "read", query: dealListQuery },
  async ({ user, query }) => {
    const { open, ...opts } = query;
    const page = await listDeals(await getDb(), user, {
      ...opts,
      open: open === "1" || open === "true",
    });
    return Response.json(page);
  },
);

// POST /api/deals – a brand creates a deal with its milestones
export const POST = route(
  { auth: requireUser, scope: "write", body: createDealBody },
  async ({ user, body }) => {
    const deal = await createDeal(await getDb(), user, body);
    return Response.json({ deal }, { status: 201 });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
