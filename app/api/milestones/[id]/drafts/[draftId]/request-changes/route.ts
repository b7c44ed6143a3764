import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { reviewDraft } from "@/lib/drafts/drafts";
import { changesBody, draftParams } from "@/lib/drafts/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/milestones/:id/drafts/:draftId/request-changes – the brand asks for changes, with a message
export const POST = route(
  { auth: requireUser, scope: "write", params: draftParams, body: changesBody },
  async ({ user, params, body }) => {
    const draft = await reviewDraft(await getDb(), user, params.id, params.draftId, {
      status: "changes_requested",
      message: body.message,
    });
    return Response.json({ draft });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
