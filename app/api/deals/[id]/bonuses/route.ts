import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { pageQuery } from "@/lib/pagination";
import { createBonusBody } from "@/lib/settle/bonus-schemas";
import { createBonus, listBonuses } from "@/lib/settle/bonuses";

// GET /api/deals/:id/bonuses – the deal's bonuses (the brand: all; the creator: funded ones)
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams, query: pageQuery },
  async ({ user, params, query }) =>
    Response.json(await listBonuses(await getDb(), user, params.id, query)),
);

// POST /api/deals/:id/bonuses – the brand starts a bonus after a paid milestone; it is funded
// like a deal under the bonus's id, then released (…/bonuses/:bonusId/release)
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: createBonusBody },
  async ({ req, user, params, body }) => {
    const db = await getDb();
    const input = { amountUnits: body.amount, message: body.message };
    const key = {
      userId: user.id,
      route: "POST /api/deals/:id/bonuses",
      request: { dealId: params.id, amount: body.amount.toString(), message: body.message },
    };
    return idempotentJson(
      db,
      req,
      key,
      async () => ({ bonus: await createBonus(db, user, params.id, input) }),
      () => 201,
    );
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
