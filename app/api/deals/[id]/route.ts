import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { getDeal } from "@/lib/deals/deals";
import { editDeal } from "@/lib/deals/edit";
import { editDealBody, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/deals/:id – one deal with its milestones (parties only; open deals to creators)
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams },
  async ({ user, params }) => {
    const deal = await getDeal(await getDb(), user, params.id);
    return Response.json({ deal });
  },
);

// PATCH /api/deals/:id – the brand edits a deal nobody has taken (funded: not its money)
export const PATCH = route(
  { auth: requireUser, scope: "write", params: idParams, body: editDealBody },
  async ({ user, params, body }) =>
    Response.json({ deal: await editDeal(await getDb(), user, params.id, body) }),
);

export const { POST, PUT, DELETE, OPTIONS } = methodNotAllowed(["GET", "PATCH"]);
