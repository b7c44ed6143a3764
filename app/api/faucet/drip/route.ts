import { requireUser } from "@/lib/auth/caller";
import { addressBody } from "@/lib/auth/schemas";
import { dripOnce } from "@/lib/chain/faucet";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/faucet/drip – 2.00 testnet USDC, once per address and once per user
export const POST = route(
  { auth: requireUser, scope: "settle", body: addressBody },
  async ({ user, body }) => Response.json(await dripOnce(await getDb(), user, body.address)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
