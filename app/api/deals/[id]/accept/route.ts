import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { acceptDeal } from "@/lib/deals/deals";
import { acceptBody, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/accept – a creator takes an open deal (one wins a race; others 409),
// in the version of its terms they reviewed when they say which
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams, body: acceptBody },
  async ({ user, params, body }) => {
    const deal = await acceptDeal(await getDb(), user, params.id, body);
    return Response.json({ deal });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
