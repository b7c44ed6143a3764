import { requireUser } from "@/lib/auth/caller";
import { addressBody } from "@/lib/auth/schemas";
import { dripOnce, dripState } from "@/lib/chain/faucet";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { paymentStatus } from "@/lib/settle/advance";

// POST /api/faucet/drip – 2.00 testnet USDC, once per address and once per user; 202 with
// `poll` when the chain has not confirmed it within CHAIN_BUDGET_SECONDS
export const POST = route(
  { auth: requireUser, scope: "settle", body: addressBody },
  async ({ user, body }) => {
    const answer = await dripOnce(await getDb(), user, body.address);
    return Response.json(answer, { status: paymentStatus(answer) });
  },
);

// GET /api/faucet/drip?address= – the caller's drip as it stands (what a 202's poll names)
export const GET = route(
  { auth: requireUser, scope: "read", query: addressBody },
  async ({ user, query }) => Response.json(await dripState(await getDb(), user, query.address)),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
