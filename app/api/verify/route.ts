import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { verifyBody, verifyMilestone } from "@/lib/verify/verify-milestone";

// POST /api/verify – verify a milestone's deliverable (either party)
export const POST = route(
  { auth: requireUser, scope: "write", body: verifyBody },
  async ({ user, body }) => {
    const verdict = await verifyMilestone(await getDb(), user, body.milestoneId);
    return Response.json(verdict);
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
