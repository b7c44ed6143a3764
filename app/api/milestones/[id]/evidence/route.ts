import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { milestoneEvidence } from "@/lib/verify/evidence/read";

// GET /api/milestones/:id/evidence – the posts the verifier read, one per revision (parties only)
export const GET = route({ auth: requireUser, params: idParams }, async ({ user, params }) => {
  return Response.json({ evidence: await milestoneEvidence(await getDb(), user, params.id) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
