import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { paymentStatus } from "@/lib/settle/advance";
import { settleRequestBody } from "@/lib/settle/schemas";
import { settleMany, settleMilestone } from "@/lib/settle/settle";

// POST /api/settle – verify a milestone's deliverable, gate it, and pay the creator once;
// with `milestoneIds`, up to 100 milestones, each with its own outcome (always 200)
export const POST = route(
  { auth: requireUser, scope: "settle", body: settleRequestBody },
  async ({ req, user, body }) => {
    const db = await getDb();
    const key = { userId: user.id, route: "POST /api/settle", request: body };
    if ("milestoneIds" in body)
      return idempotentJson(db, req, key, () => settleMany(db, user, body));
    // 202 when the chain did not confirm the release within the budget (CHAIN_BUDGET_SECONDS).
    return idempotentJson(db, req, key, () => settleMilestone(db, user, body), paymentStatus);
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
