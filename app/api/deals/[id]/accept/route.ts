import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { acceptDeal } from "@/lib/deals/deals";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/accept – a creator takes an open deal (one wins a race; others 409)
export const POST = route({ auth: requireUser, params: idParams }, async ({ user, params }) => {
  const deal = await acceptDeal(await getDb(), user, params.id);
  return Response.json({ deal });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
