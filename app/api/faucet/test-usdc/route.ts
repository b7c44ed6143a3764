import { requireUser } from "@/lib/auth/caller";
import { addressBody } from "@/lib/auth/schemas";
import { mintTestFunds } from "@/lib/chain/test-funds";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/faucet/test-usdc – local chain only: 1,000 test USDC (and gas) to fund escrows
export const POST = route(
  { auth: requireUser, scope: "settle", body: addressBody },
  async ({ user, body }) => Response.json(await mintTestFunds(await getDb(), user, body.address)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
