import { requireSessionUser } from "@/lib/auth/caller";
import { walletLinkBody } from "@/lib/auth/schemas";
import { toUserJson } from "@/lib/auth/users";
import { linkWallet } from "@/lib/auth/wallet";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/auth/wallet – link a wallet by a signed message (SIWE-style, nonce + expiry).
// The payout address: a session only (an API key or identity token gets 403).
export const POST = route(
  { auth: requireSessionUser, body: walletLinkBody },
  async ({ user, body }) => {
    const signature = body.signature as `0x${string}`;
    const linked = await linkWallet(await getDb(), { userId: user.id, ...body, signature });
    return Response.json({ user: toUserJson(linked) });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
