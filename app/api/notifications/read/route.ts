import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { markNotificationsRead } from "@/lib/notify/inbox";
import { markReadBody } from "@/lib/notify/schemas";

// POST /api/notifications/read – mark { ids } or { all: true } of the caller's notifications read
export const POST = route(
  { auth: requireUser, scope: "write", body: markReadBody },
  async ({ user, body }) => Response.json(await markNotificationsRead(await getDb(), user, body)),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
