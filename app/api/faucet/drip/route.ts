import { z } from "zod";
import { requireUser } from "@/lib/auth/caller";
import { addressSchema } from "@/lib/auth/schemas";
import { dripOnce } from "@/lib/chain/faucet";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

const dripBody = z.object({ address: addressSchema });

// POST /api/faucet/drip – 2.00 testnet USDC, once per address and once per user
export const POST = route(
  { auth: requireUser, scope: "settle", body: dripBody },
  async ({ user, body }) => Response.json(await dripOnce(await getDb(), user, body.address)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
