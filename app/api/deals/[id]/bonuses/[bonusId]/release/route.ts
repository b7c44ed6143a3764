import type { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { paymentStatus } from "@/lib/settle/advance";
import { bonusParams, type bonusReleaseResponse } from "@/lib/settle/bonus-schemas";
import { releaseBonus } from "@/lib/settle/bonuses";

// POST /api/deals/:id/bonuses/:bonusId/release – the brand funded the bonus: the escrow
// releases it to the creator, once (202 with poll while the chain has not confirmed it)
export const POST = route(
  { auth: requireUser, scope: "settle", params: bonusParams },
  async ({ req, user, params }) => {
    const db = await getDb();
    const key = {
      userId: user.id,
      route: "POST /api/deals/:id/bonuses/:bonusId/release",
      request: params,
    };
    return idempotentJson(
      db,
      req,
      key,
      async (): Promise<z.infer<typeof bonusReleaseResponse>> => {
        const bonus = await releaseBonus(db, user, params.id, params.bonusId);
        return bonus.poll ? { bonus, poll: bonus.poll } : { bonus };
      },
      paymentStatus,
    );
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
