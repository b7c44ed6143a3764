import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type DealEvent, type DealEventType, dealEvents } from "@/db/schema";

// The activity log (lib/events/events.ts): appended in the transaction of the change it
// records, fanned out to the inbox, the e-mail outbox and webhook deliveries.

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
 * subscribes to the type.
 */
export async function insertEventWithFanOut(tx: DbOrTx, e: NewDealEvent): Promise<void> {
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

/**
 * A deal's events after sequence number `after`, oldest first. The caller has checked that
 * the viewer is a party of the deal.
 */
export async function listDealEventsAfter(
  db: DbOrTx,
  dealId: string,
  p: { after: number; limit: number },
): Promise<DealEvent[]> {
  return db
    .select()
    .from(dealEvents)
    .where(and(eq(dealEvents.dealId, dealId), gt(dealEvents.seq, p.after)))
    .orderBy(asc(dealEvents.seq))
    .limit(p.limit);
}
