import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { getMilestone, updateMilestone } from "@/lib/deals/milestones";
import { idParams, milestonePatchBody } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/milestones/:id – a milestone with its deliverables, verdicts and settlement
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams },
  async ({ user, params }) => {
    const milestone = await getMilestone(await getDb(), user, params.id);
    return Response.json({ milestone });
  },
);

// PATCH /api/milestones/:id – the brand changes the milestone's metadata
export const PATCH = route(
  { auth: requireUser, scope: "write", params: idParams, body: milestonePatchBody },
  async ({ user, params, body }) => {
    const milestone = await updateMilestone(await getDb(), user, params.id, body);
    return Response.json({ milestone });
  },
);

export const { POST, PUT, DELETE, OPTIONS } = methodNotAllowed(["GET", "PATCH"]);
