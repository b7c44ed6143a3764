import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { ensureStarterDeals } from "@/lib/deals/starter";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/demo/ensure-deals – seed the three starter deals for the calling brand, once
export const POST = route({ auth: requireUser, scope: "write" }, async ({ user }) => {
  const result = await ensureStarterDeals(await getDb(), user);
  return Response.json(result, { status: result.created > 0 ? 201 : 200 });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
