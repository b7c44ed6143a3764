import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { evidenceQuery, milestoneEvidence } from "@/lib/verify/evidence/read";

// GET /api/milestones/:id/evidence – the posts the verifier read, one per revision, newest
// first (parties only)
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams, query: evidenceQuery },
  async ({ user, params, query }) => {
    const page = await milestoneEvidence(await getDb(), user, params.id, query);
    return Response.json({ evidence: page.items, nextCursor: page.nextCursor });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
