import { and, desc, eq, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import {
  type DealEventType,
  dealEvents,
  deals,
  emailOutbox,
  milestones,
  notifications,
  users,
} from "@/db/schema";

// The in-app inbox and the e-mail outbox. Both are rows written with an event
// (lib/events/events.ts); their words come from the event, its deal and milestone.

const brandUser = alias(users, "brand_user");
const creatorUser = alias(users, "creator_user");

/** What describing an event needs, selected with it (see lib/notify/describe.ts). */
export const eventContextColumns = {
  eventId: dealEvents.id,
  type: sql<DealEventType>`${dealEvents.type}`,
  data: dealEvents.data,
  dealId: dealEvents.dealId,
  milestoneId: dealEvents.milestoneId,
  eventCreatedAt: dealEvents.createdAt,
  dealTitle: deals.title,
  milestoneTitle: milestones.title,
  actor: sql<"brand" | "creator" | "service">`case
    when ${dealEvents.actorId} is null then 'service'
    when ${dealEvents.actorId} = ${deals.brandId} then 'brand'
    else 'creator' end`,
  brandName: brandUser.displayName,
  creatorName: creatorUser.displayName,
};

/** A user's notifications, newest first, after the keyset position `before`. */
export async function listInbox(
  db: DbOrTx,
  userId: string,
  p: { limit: number; before?: { at: string; id: string }; unreadOnly?: boolean },
) {
  // `at` is the row's created_at to the microsecond (a JS Date would cut it to the ms).
  const at = p.before ? sql`(${p.before.at}::timestamp at time zone 'UTC')` : undefined;
  const before =
    p.before && at
      ? (or(
          lt(notifications.createdAt, at),
          and(eq(notifications.createdAt, at), lt(notifications.id, p.before.id)),
        ) as SQL)
      : undefined;
  return db
    .select({
      id: notifications.id,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
      position: sql<string>`to_char(${notifications.createdAt} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')`,
      ...eventContextColumns,
    })
    .from(notifications)
    .innerJoin(dealEvents, eq(dealEvents.id, notifications.eventId))
    .innerJoin(deals, eq(deals.id, dealEvents.dealId))
    .leftJoin(milestones, eq(milestones.id, dealEvents.milestoneId))
    .innerJoin(brandUser, eq(brandUser.id, deals.brandId))
    .leftJoin(creatorUser, eq(creatorUser.id, deals.creatorId))
    .where(
      and(
        eq(notifications.userId, userId),
        p.unreadOnly ? isNull(notifications.readAt) : undefined,
        before,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(p.limit);
}

export async function countUnread(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks the user's notifications read: the given ids, or all of them. Returns how many. */
export async function markRead(
  db: DbOrTx,
  userId: string,
  which: { ids: string[] } | { all: true },
): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        "ids" in which ? inArray(notifications.id, which.ids) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

// ── e-mail outbox ───────────────────────────────────────────────────────────────────────

/** The outbox rows with the context of their event (for rendering), by id. */
export async function emailsWithContext(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: emailOutbox.id,
      toAddress: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      body: emailOutbox.body,
      attempts: emailOutbox.attempts,
      ...eventContextColumns,
    })
    .from(emailOutbox)
    .leftJoin(dealEvents, eq(dealEvents.id, emailOutbox.eventId))
    .leftJoin(deals, eq(deals.id, dealEvents.dealId))
    .leftJoin(milestones, eq(milestones.id, dealEvents.milestoneId))
    .leftJoin(brandUser, eq(brandUser.id, deals.brandId))
    .leftJoin(creatorUser, eq(creatorUser.id, deals.creatorId))
    .where(inArray(emailOutbox.id, ids));
}

/** The newest outbox rows (the local outbox page). */
export async function recentEmails(db: DbOrTx, limit = 50) {
  return db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(limit);
}

/** Takes up to `limit` due e-mails for `leaseSeconds` (see claimDueDeliveries). */
export async function claimDueEmails(
  db: DbOrTx,
  p: { limit: number; leaseSeconds: number },
): Promise<{ id: string; attempts: number }[]> {
  const result = await db.execute(sql`
    update email_outbox
    set lease_expires_at = now() + make_interval(secs => ${p.leaseSeconds}),
        attempts = attempts + 1
    where id in (
      select id from email_outbox
      where status = 'pending'
        and next_attempt_at <= now()
        and (lease_expires_at is null or lease_expires_at <= now())
      order by next_attempt_at
      limit ${p.limit}
      for update skip locked
    )
    returning id, attempts`);
  const rows = Array.isArray(result)
    ? result
    : ((result as unknown as { rows: unknown[] }).rows ?? []);
  return (rows as { id: string; attempts: number | string }[]).map((r) => ({
    id: r.id,
    attempts: Number(r.attempts),
  }));
}

/** Sent: keeps the words that went out (the local outbox page shows them). */
export async function markEmailSent(
  db: DbOrTx,
  id: string,
  mail: { subject: string; body: string },
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ status: "sent", sentAt: sql`now()`, leaseExpiresAt: null, error: null, ...mail })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "pending")));
}

export async function markEmailFailed(
  db: DbOrTx,
  p: { id: string; attempts: number; error: string; retryInSeconds: number | null },
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({
      status: p.retryInSeconds === null ? "failed" : "pending",
      nextAttemptAt:
        p.retryInSeconds === null
          ? sql`${emailOutbox.nextAttemptAt}`
          : sql`now() + make_interval(secs => ${p.retryInSeconds})`,
      leaseExpiresAt: null,
      error: p.error.slice(0, 500),
    })
    .where(
      and(
        eq(emailOutbox.id, p.id),
        eq(emailOutbox.status, "pending"),
        eq(emailOutbox.attempts, p.attempts),
      ),
    );
}
