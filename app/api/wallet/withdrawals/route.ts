import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { idempotentJson } from "@/lib/idempotency";
import { withdrawalBody } from "@/lib/wallet/schemas";
import { withdraw } from "@/lib/wallet/withdraw";

// POST /api/wallet/withdrawals – send USDC from the caller's embedded wallet to an address
// (Idempotency-Key honoured)
export const POST = route(
  { auth: requireUser, scope: "settle", body: withdrawalBody },
  async ({ req, user, body }) => {
    const db = await getDb();
    const key = { userId: user.id, route: "POST /api/wallet/withdrawals", request: body };
    return idempotentJson(db, req, key, async () => ({
      withdrawal: await withdraw(db, user, body),
    }));
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
