import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { reviewDraft } from "@/lib/drafts/drafts";
import { draftParams } from "@/lib/drafts/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/milestones/:id/drafts/:draftId/approve – the brand approves the draft (once)
export const POST = route(
  { auth: requireUser, scope: "write", params: draftParams },
  async ({ user, params }) => {
    const draft = await reviewDraft(await getDb(), user, params.id, params.draftId, {
      status: "approved",
    });
    return Response.json({ draft });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
