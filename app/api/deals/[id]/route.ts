import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/caller";
import { getDeal } from "@/lib/deals/deals";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/deals/:id – one deal with its milestones (parties only; open deals to creators)
export const GET = route({ auth: requireUser, params: idParams }, async ({ user, params }) => {
  const deal = await getDeal(await getDb(), user, params.id);
  return Response.json({ deal });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
