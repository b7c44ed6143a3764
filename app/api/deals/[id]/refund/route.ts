import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { refundExpiredMilestones } from "@/lib/deals/funding";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/refund – milestones unreleased past deadline + grace go back to the brand
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams },
  async ({ user, params }) =>
    Response.json({ deal: await refundExpiredMilestones(await getDb(), user, params.id) }),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
