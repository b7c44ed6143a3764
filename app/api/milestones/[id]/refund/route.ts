import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { paymentStatus } from "@/lib/settle/advance";
import { refundOverdue } from "@/lib/settle/decisions";
import { refundMilestoneBody } from "@/lib/settle/schemas";

// POST /api/milestones/:id/refund – the brand takes back a milestone that is past its due
// date with nothing delivered (an escrow release paying the creator 0)
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: refundMilestoneBody },
  async ({ req, user, params, body }) => {
    const db = await getDb();
    const input = { ...body, milestoneId: params.id };
    const key = { userId: user.id, route: "POST /api/milestones/:id/refund", request: input };
    // 202 when the chain did not confirm the release within the budget (CHAIN_BUDGET_SECONDS).
    return idempotentJson(db, req, key, () => refundOverdue(db, user, input), paymentStatus);
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
