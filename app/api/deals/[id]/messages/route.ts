import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { listMessages, postMessage, readMessageSubmission } from "@/lib/deals/messages";
import { idParams } from "@/lib/deals/schemas";
import { methodNotAllowed, route } from "@/lib/http";
import { pageQuery } from "@/lib/pagination";

// GET /api/deals/:id/messages – the thread between the deal's brand and creator, newest first
// (cursor-paginated), with the caller's unread count
export const GET = route(
  { auth: requireUser, scope: "read", params: idParams, query: pageQuery },
  async ({ user, params, query }) =>
    Response.json(await listMessages(await getDb(), user, params.id, query)),
);

// POST /api/deals/:id/messages – write to the other party (plain text, JSON; or multipart with
// a file); rate-limited per person
export const POST = route(
  { auth: requireUser, scope: "write", params: idParams },
  async ({ req, user, params }) => {
    const input = await readMessageSubmission(req);
    return Response.json(await postMessage(await getDb(), user, params.id, input), {
      status: 201,
    });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
