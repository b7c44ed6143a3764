import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { listNotifications } from "@/lib/notify/inbox";
import { notificationsQuery as query } from "@/lib/notify/schemas";

// GET /api/notifications – the caller's inbox, newest first (cursor-paginated), and the unread count
export const GET = route({ auth: requireUser, scope: "read", query }, async ({ user, query }) => {
  const page = await listNotifications(await getDb(), user, query);
  return Response.json({
    notifications: page.items,
    nextCursor: page.nextCursor,
    unreadCount: page.unreadCount,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
