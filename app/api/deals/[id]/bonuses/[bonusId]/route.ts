import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { bonusParams } from "@/lib/settle/bonus-schemas";
import { getBonus } from "@/lib/settle/bonuses";

// GET /api/deals/:id/bonuses/:bonusId – one bonus (poll it while it is being paid)
export const GET = route(
  { auth: requireUser, scope: "read", params: bonusParams },
  async ({ user, params }) =>
    Response.json({ bonus: await getBonus(await getDb(), user, params.id, params.bonusId) }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
