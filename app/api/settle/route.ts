import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/caller";
import { methodNotAllowed, route, toErrorResponse } from "@/lib/http";
import { idempotencyKeyOf, withIdempotency } from "@/lib/idempotency";
import { settleBody } from "@/lib/settle/schemas";
import { settleMilestone } from "@/lib/settle/settle";

// POST /api/settle – verify a milestone's deliverable, gate it, and pay the creator once
export const POST = route({ auth: requireUser, body: settleBody }, async ({ req, user, body }) => {
  const db = await getDb();
  return withIdempotency(
    db,
    { userId: user.id, key: idempotencyKeyOf(req), route: "POST /api/settle", request: body },
    async () => {
      try {
        return Response.json(await settleMilestone(db, user, body));
      } catch (err) {
        return toErrorResponse(err, req);
      }
    },
  );
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
