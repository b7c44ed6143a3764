import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { requestChanges } from "@/lib/settle/change-requests";
import { requestChangesBody } from "@/lib/settle/schemas";

// POST /api/milestones/:id/request-changes – the brand sends a submission awaiting review back
// to the creator with a message: no verdict, nothing paid or refunded. Honours Idempotency-Key.
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams, body: requestChangesBody },
  async ({ req, user, params, body }) => {
    const db = await getDb();
    const input = { milestoneId: params.id, message: body.message };
    const key = {
      userId: user.id,
      route: "POST /api/milestones/:id/request-changes",
      request: input,
    };
    return idempotentJson(
      db,
      req,
      key,
      () => requestChanges(db, user, input),
      () => 201,
    );
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
