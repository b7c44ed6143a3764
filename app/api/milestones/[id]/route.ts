import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { getMilestone } from "@/lib/deals/milestones";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/milestones/:id – a milestone with its deliverables, verdicts and settlement
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams },
  async ({ user, params }) => {
    const milestone = await getMilestone(await getDb(), user, params.id);
    return Response.json({ milestone });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
