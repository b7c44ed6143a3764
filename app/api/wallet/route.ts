import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { walletOverview } from "@/lib/wallet/wallets";

// GET /api/wallet – the wallets holding the caller's USDC (balances read on-chain) and the
// latest sends from the embedded wallet
export const GET = route({ auth: requireUser, scope: "read" }, async ({ user }) =>
  Response.json(await walletOverview(await getDb(), user)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
