import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { fundWithAuthorization } from "@/lib/deals/funding";
import { fundingAuthorizationBody, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { paymentStatus } from "@/lib/settle/advance";

// POST /api/deals/:id/funding/authorization – gasless funding: the relayer submits the
// brand's signed EIP-3009 authorization; 202 with `poll` when the chain has not confirmed it
// within CHAIN_BUDGET_SECONDS (reconcile opens the deal)
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: fundingAuthorizationBody },
  async ({ user, params, body }) => {
    const answer = await fundWithAuthorization(await getDb(), user, params.id, body);
    return Response.json(answer, { status: paymentStatus(answer) });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
