import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { markMessagesRead } from "@/lib/deals/messages";
import { idParams, messagesReadBody } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";

// POST /api/deals/:id/messages/read – the caller has read the thread up to { upTo } (or all)
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams, body: messagesReadBody },
  async ({ user, params, body }) =>
    Response.json(await markMessagesRead(await getDb(), user, params.id, body)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
