import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { getDraft } from "@/lib/drafts/drafts";
import { draftParams } from "@/lib/drafts/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// GET /api/milestones/:id/drafts/:draftId – both parties: one draft with its rule checks
export const GET = route(
  { auth: requireUser, scope: "read", params: draftParams },
  async ({ user, params }) => {
    const draft = await getDraft(await getDb(), user, params.id, params.draftId);
    return Response.json({ draft });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
