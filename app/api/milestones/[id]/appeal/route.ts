import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { appealMilestone } from "@/lib/settle/decisions";
import { appealBody } from "@/lib/settle/schemas";

// POST /api/milestones/:id/appeal – the creator appeals a rejected revision (once per revision)
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams, body: appealBody },
  async ({ user, params, body }) =>
    Response.json(
      await appealMilestone(await getDb(), user, { milestoneId: params.id, reason: body.reason }),
      { status: 201 },
    ),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
