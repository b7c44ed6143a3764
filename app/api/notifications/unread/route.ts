import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { unreadCount } from "@/lib/notify/inbox";

// GET /api/notifications/unread – how many of the caller's notifications are unread (the header badge)
export const GET = route({ auth: requireUser, scope: "read" }, async ({ user }) =>
  Response.json(
    { unreadCount: await unreadCount(await getDb(), user) },
    { headers: { "cache-control": "no-store" } },
  ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
