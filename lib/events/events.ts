import { and, asc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { findVisibleDeal } from "@/db/queries/deals";
import { type DealEvent, type DealEventType, dealEvents } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";

// The activity log. Every state change of a deal or its milestones appends one row, in the
// same database transaction as the change: a change that rolls back leaves no event, and
// no event exists without its change. The timeline, notifications and webhooks read this.

export type NewDealEvent = {
  dealId: string;
  milestoneId?: string | null;
  type: DealEventType;
  /** The user who caused it; null when the service did (reconcile, the chain watcher). */
  actorId?: string | null;
  data?: Record<string, unknown>;
};

/**
 * Appends an event and fans it out, in one statement: an inbox notification and an e-mail
 * (outbox row) for each party of the deal who did not cause it (both parties when the
 * service did), and a webhook delivery for every enabled endpoint of either party that
 * subscribes to the type. Call it with the transaction that makes the change, so a change
 * that rolls back leaves none of them. The e-mail's text is rendered when it is sent
 * (lib/notify/outbox.ts), from the same event the inbox renders.
 */
export async function recordEvent(tx: DbOrTx, e: NewDealEvent): Promise<void> {
  await tx.execute(sql`
    with ev as (
      insert into deal_events (deal_id, milestone_id, type, actor_id, data)
      values (${e.dealId}, ${e.milestoneId ?? null}, ${e.type}, ${e.actorId ?? null},
              ${JSON.stringify(e.data ?? {})}::jsonb)
      returning id, deal_id, type, actor_id
    ),
    parties as (
      select distinct p.user_id, ev.id as event_id, ev.type, ev.actor_id
      from ev
      join deals d on d.id = ev.deal_id
      cross join lateral (values (d.brand_id), (d.creator_id)) as p (user_id)
      where p.user_id is not null
    ),
    told as (
      insert into notifications (user_id, event_id)
      select user_id, event_id from parties where user_id is distinct from actor_id
      on conflict do nothing
      returning user_id, event_id
    ),
    mailed as (
      insert into email_outbox (user_id, event_id, to_address, subject, body)
      select told.user_id, told.event_id, u.email, '', ''
      from told join users u on u.id = told.user_id
      on conflict do nothing
    )
    insert into webhook_deliveries (endpoint_id, event_id)
    select w.id, parties.event_id
    from parties
    join webhook_endpoints w on w.user_id = parties.user_id
    where w.enabled
      and (w.event_types = '[]'::jsonb or w.event_types @> jsonb_build_array(parties.type))
    on conflict do nothing`);
}

export type DealEventJson = {
  id: string;
  type: DealEventType;
  dealId: string;
  milestoneId: string | null;
  actor: { id: string } | null;
  data: Record<string, unknown>;
  createdAt: string;
};

const eventJson = (e: DealEvent): DealEventJson => ({
  id: e.id,
  type: e.type,
  dealId: e.dealId,
  milestoneId: e.milestoneId,
  actor: e.actorId ? { id: e.actorId } : null,
  data: e.data,
  createdAt: e.createdAt.toISOString(),
});

/** GET /api/deals/:id/events: the deal's activity, oldest first, to its parties only. */
export async function listDealEvents(
  db: DbOrTx,
  caller: { id: string; email: string },
  dealId: string,
  page: PageQuery,
): Promise<Page<DealEventJson>> {
  const deal = await findVisibleDeal(db, caller, dealId);
  if (!deal || (deal.brandId !== caller.id && deal.creatorId !== caller.id)) throw notFound("Deal");
  const after = page.cursor
    ? decodeCursor(`events:${dealId}`, page.cursor, z.number().int().nonnegative())
    : 0;
  const rows = await db
    .select()
    .from(dealEvents)
    .where(and(eq(dealEvents.dealId, dealId), gt(dealEvents.seq, after)))
    .orderBy(asc(dealEvents.seq))
    .limit(page.limit + 1);
  return toPage(rows, page.limit, eventJson, (r) => encodeCursor(`events:${dealId}`, r.seq));
}
