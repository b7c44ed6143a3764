import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/caller";
import { methodNotAllowed, route } from "@/lib/http";
import { markNotificationsRead, markReadBody } from "@/lib/notify/inbox";

// POST /api/notifications/read – mark { ids } or { all: true } of the caller's notifications read
export const POST = route({ auth: requireUser, body: markReadBody }, async ({ user, body }) =>
  Response.json(await markNotificationsRead(await getDb(), user, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
