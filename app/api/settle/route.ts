import { z } from "zod";
import { getDb } from "@/db/client";
import { settlementVias } from "@/db/schema";
import { requireUser } from "@/lib/auth/caller";
import { route, toErrorResponse } from "@/lib/http";
import { idempotencyKeyOf, withIdempotency } from "@/lib/idempotency";
import { settleMilestone } from "@/lib/settle/settle";

const body = z.object({
  milestoneId: z.uuid("must be a UUID"),
  via: z.enum(settlementVias).default("direct"),
  minScore: z.number().min(0).max(1).optional(),
});

// POST /api/settle – verify a milestone's deliverable, gate it, and pay the creator once
export const POST = route({ auth: requireUser, body }, async ({ req, user, body }) => {
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
