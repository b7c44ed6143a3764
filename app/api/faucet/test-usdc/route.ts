import { requireUser } from "@/lib/auth/caller";
import { addressBody } from "@/lib/auth/schemas";
import { mintTestFunds, testFundsState } from "@/lib/chain/test-funds";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { paymentStatus } from "@/lib/settle/advance";

// POST /api/faucet/test-usdc – local chain only: 1,000 test USDC (and gas) to fund escrows;
// 202 with `poll` when the chain has not confirmed the mint within CHAIN_BUDGET_SECONDS
export const POST = route(
  { auth: requireUser, scope: "settle", body: addressBody },
  async ({ user, body }) => {
    const answer = await mintTestFunds(await getDb(), user, body.address);
    return Response.json(answer, { status: paymentStatus(answer) });
  },
);

// GET /api/faucet/test-usdc?address= – the caller's latest mint there (what a 202's poll names)
export const GET = route(
  { auth: requireUser, scope: "read", query: addressBody },
  async ({ user, query }) =>
    Response.json(await testFundsState(await getDb(), user, query.address)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
