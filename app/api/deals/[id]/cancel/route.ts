import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { cancelDeal } from "@/lib/deals/funding";
import { idParams, txHashBody } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/cancel – the brand ends a deal nobody has taken; its money goes back
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: txHashBody },
  async ({ user, params }) =>
    Response.json({ deal: await cancelDeal(await getDb(), user, params.id) }),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
