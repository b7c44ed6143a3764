import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { paymentStatus } from "@/lib/settle/advance";
import { decideMilestone } from "@/lib/settle/decisions";
import { decisionBody } from "@/lib/settle/schemas";

// POST /api/milestones/:id/decision – the brand pays a revision at a score it chooses, or
// upholds its rejection, with a reason. Paying goes through the settle path (escrow release).
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: decisionBody },
  async ({ req, user, params, body }) => {
    const db = await getDb();
    const input = { ...body, milestoneId: params.id };
    const key = { userId: user.id, route: "POST /api/milestones/:id/decision", request: input };
    // 202 when the chain did not confirm the release within the budget (CHAIN_BUDGET_SECONDS).
    return idempotentJson(db, req, key, () => decideMilestone(db, user, input), paymentStatus);
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
