import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { draftMediaResponse } from "@/lib/drafts/drafts";
import { draftParams } from "@/lib/drafts/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { storage } from "@/lib/storage";
import { requestedRange } from "@/lib/storage/serve";

// GET /api/milestones/:id/drafts/:draftId/media – the draft's file, streamed to the deal's parties only
export const GET = route(
  { auth: requireUser, scope: "read", params: draftParams },
  async ({ req, user, params }) =>
    draftMediaResponse(
      await getDb(),
      storage(),
      user,
      params.id,
      params.draftId,
      requestedRange(req),
    ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
