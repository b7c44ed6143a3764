import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { fundWithAuthorization } from "@/lib/deals/funding";
import { fundingAuthorizationBody, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/funding/authorization – gasless funding: the relayer submits the
// brand's signed EIP-3009 authorization
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: fundingAuthorizationBody },
  async ({ user, params, body }) =>
    Response.json({ deal: await fundWithAuthorization(await getDb(), user, params.id, body) }),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
