import { requireUser } from "@/lib/auth/caller";
import { walletLinkBody } from "@/lib/auth/schemas";
import { toUserJson } from "@/lib/auth/users";
import { linkWallet } from "@/lib/auth/wallet";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/auth/wallet – link a wallet by a signed message (SIWE-style, nonce + expiry)
export const POST = route({ auth: requireUser, body: walletLinkBody }, async ({ user, body }) => {
  const signature = body.signature as `0x${string}`;
  const linked = await linkWallet(await getDb(), { userId: user.id, ...body, signature });
  return Response.json({ user: toUserJson(linked) });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
