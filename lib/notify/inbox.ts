import "server-only";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { countUnread, listInbox, markRead } from "@/db/queries/notifications";
import { dealEventTypes } from "@/db/schema";
import { iso, nextCursor } from "@/lib/api/fields";
import { describeEvent } from "@/lib/notify/describe";
import type { MarkReadBody } from "@/lib/notify/schemas";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";

// The in-app inbox: the other party's actions (and the service's) on the caller's deals,
// built from the activity log. Every query is the caller's own rows only.

export const notificationSchema = z
  .object({
    id: z.uuid(),
    read: z.boolean(),
    createdAt: iso,
    title: z.string(),
    detail: z.string().nullable(),
    event: z.object({
      id: z.uuid(),
      type: z.enum(dealEventTypes),
      dealId: z.uuid(),
      milestoneId: z.uuid().nullable(),
      actor: z.enum(["brand", "creator", "service"]),
    }),
  })
  .meta({ id: "Notification" });
const unreadCountField = z.number().int().nonnegative();
export const notificationPageResponse = z.object({
  notifications: z.array(notificationSchema),
  nextCursor,
  unreadCount: unreadCountField,
});
export const unreadCountResponse = z.object({ unreadCount: unreadCountField });
export const markReadResponse = z.object({
  marked: z.number().int().nonnegative().describe("How many were unread and are now read"),
  unreadCount: unreadCountField,
});
export type NotificationJson = z.infer<typeof notificationSchema>;

const LIST = "notifications";
const position = z.tuple([z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/), z.uuid()]);

/** GET /api/notifications: newest first, with the unread count. */
export async function listNotifications(
  db: DbOrTx,
  caller: { id: string },
  page: PageQuery & { unread?: boolean },
): Promise<Page<NotificationJson> & { unreadCount: number }> {
  const before = page.cursor ? decodeCursor(LIST, page.cursor, position) : undefined;
  const rows = await listInbox(db, caller.id, {
    limit: page.limit + 1,
    before: before ? { at: before[0], id: before[1] } : undefined,
    unreadOnly: page.unread,
  });
  const result = toPage(
    rows,
    page.limit,
    (r): NotificationJson => {
      const text = describeEvent(r);
      return {
        id: r.id,
        read: r.readAt !== null,
        createdAt: r.createdAt.toISOString(),
        title: text.title,
        detail: text.detail,
        event: {
          id: r.eventId,
          type: r.type,
          dealId: r.dealId,
          milestoneId: r.milestoneId,
          actor: r.actor,
        },
      };
    },
    (r) => encodeCursor(LIST, [r.position, r.id]),
  );
  return { ...result, unreadCount: await countUnread(db, caller.id) };
}

export const unreadCount = (db: DbOrTx, caller: { id: string }) => countUnread(db, caller.id);

/** POST /api/notifications/read: marks the caller's own notifications (others' ids: ignored). */
export async function markNotificationsRead(
  db: DbOrTx,
  caller: { id: string },
  body: MarkReadBody,
): Promise<{ marked: number; unreadCount: number }> {
  const marked = await markRead(db, caller.id, "ids" in body ? { ids: body.ids } : { all: true });
  return { marked, unreadCount: await countUnread(db, caller.id) };
}
