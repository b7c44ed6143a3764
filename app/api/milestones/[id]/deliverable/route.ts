import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { submitDeliverable } from "@/lib/deals/milestones";
import { deliverableBody, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/milestones/:id/deliverable – the deal's creator submits a deliverable revision
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams, body: deliverableBody },
  async ({ user, params, body }) => {
    const milestone = await submitDeliverable(await getDb(), user, params.id, body);
    return Response.json({ milestone }, { status: 201 });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
