import { z } from "zod";
import { getDb } from "@/db/client";
import { settlementVias } from "@/db/schema";
import { requireUser } from "@/lib/auth/caller";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route, toErrorResponse } from "@/lib/http";
import { idempotencyKeyOf, withIdempotency } from "@/lib/idempotency";
import { refundOverdue } from "@/lib/settle/decisions";

const body = z.object({
  reason: z.string().trim().max(2000, "Keep the reason under 2,000 characters").optional(),
  via: z.enum(settlementVias).default("direct"),
});

// POST /api/milestones/:id/refund – the brand takes back a milestone that is past its due
// date with nothing delivered (an escrow release paying the creator 0)
export const POST = route(
  { auth: requireUser, params: idParams, body },
  async ({ req, user, params, body }) => {
    const db = await getDb();
    const input = { ...body, milestoneId: params.id };
    return withIdempotency(
      db,
      {
        userId: user.id,
        key: idempotencyKeyOf(req),
        route: "POST /api/milestones/:id/refund",
        request: input,
      },
      async () => {
        try {
          return Response.json(await refundOverdue(db, user, input));
        } catch (err) {
          return toErrorResponse(err, req);
        }
      },
    );
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
