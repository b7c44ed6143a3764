import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { requestDeposit } from "@/lib/deals/funding";
import { depositRequestBody, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/funding/deposit – the deal's deposit address for the refund address the
// brand names (settle: it decides where the deal's money goes back)
export const POST = route(
  { auth: requireUser, scope: "settle", params: idParams, body: depositRequestBody },
  async ({ user, params, body }) =>
    Response.json({ deposit: await requestDeposit(await getDb(), user, params.id, body) }),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
