import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { confirmFunding, getFundingTerms } from "@/lib/deals/funding";
import { fundingReportBody, fundingTermsQuery, idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/deals/:id/funding – what the brand funds the escrow with (?brand= adds the
// gasless authorization's nonce)
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams, query: fundingTermsQuery },
  async ({ user, params, query }) =>
    Response.json({ funding: await getFundingTerms(await getDb(), user, params.id, query.brand) }),
);

// POST /api/deals/:id/funding – the brand funded it; the deal opens once the contract agrees
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams, body: fundingReportBody },
  async ({ user, params, body }) =>
    Response.json({ deal: await confirmFunding(await getDb(), user, params.id, body) }),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
