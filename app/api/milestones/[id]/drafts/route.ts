import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { idParams } from "@/lib/deals/schemas";
import { createDraft, listMilestoneDrafts } from "@/lib/drafts/drafts";
import { draftListQuery } from "@/lib/drafts/schemas";
import { readDraftSubmission } from "@/lib/drafts/submission";
import { methodNotAllowed, route } from "@/lib/http";
import { storage } from "@/lib/storage";

// GET /api/milestones/:id/drafts – both parties: the milestone's drafts, newest first
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams, query: draftListQuery },
  async ({ user, params, query }) => {
    const page = await listMilestoneDrafts(await getDb(), user, params.id, query);
    return Response.json({ drafts: page.items, nextCursor: page.nextCursor });
  },
);

// POST /api/milestones/:id/drafts – the creator sends a draft: JSON, or a multipart form with a file
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams },
  async ({ req, user, params }) => {
    const { input, file } = await readDraftSubmission(req);
    const draft = await createDraft(await getDb(), storage(), user, params.id, input, file);
    return Response.json({ draft }, { status: 201 });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
