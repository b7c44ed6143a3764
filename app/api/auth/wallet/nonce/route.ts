import { requireSessionUser } from "@/lib/auth/caller";
import { walletNonceQuery } from "@/lib/auth/schemas";
import { issueWalletNonce } from "@/lib/auth/wallet";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/auth/wallet/nonce – a one-time nonce (and, given ?address=, the message to sign);
// wallet linking is session-only
export const GET = route(
  { auth: requireSessionUser, query: walletNonceQuery },
  async ({ user, query }) =>
    Response.json(await issueWalletNonce(await getDb(), { userId: user.id, ...query }), {
      headers: { "cache-control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
