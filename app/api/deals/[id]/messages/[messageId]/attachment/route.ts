import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { messageAttachmentResponse } from "@/lib/deals/messages";
import { messageParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { requestedRange } from "@/lib/storage/serve";

// GET /api/deals/:id/messages/:messageId/attachment – a message's file, streamed to the deal's parties only
export const GET = route(
  { auth: requireUser, scope: "read", params: messageParams },
  async ({ req, user, params }) =>
    messageAttachmentResponse(await getDb(), user, params.id, params.messageId, {
      range: requestedRange(req),
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
