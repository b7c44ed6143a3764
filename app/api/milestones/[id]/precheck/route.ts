import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { precheckBody, precheckMilestone } from "@/lib/verify/precheck";

// POST /api/milestones/:id/precheck – the creator checks a post against the milestone's rules
// before submitting it (nothing stored, nothing paid; rate-limited)
export const POST = route(
  { auth: requireUser, scope: "read", params: idParams, body: precheckBody },
  async ({ user, params, body }) =>
    Response.json(await precheckMilestone(await getDb(), user, params.id, body.url)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
