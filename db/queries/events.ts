import { and, asc, desc, eq, gt, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type DealEvent, type DealEventType, dealEvents, deals } from "@/db/schema";

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
  const milestoneId = e.milestoneId ?? null;
  await tx.execute(sql`
    with snap as (
      select ${milestoneId === null ? sql`'deal'` : sql`'milestone'`}::text as object_type,
             ${milestoneId === null ? dealSnapshot(e.dealId) : milestoneSnapshot(milestoneId)} as object
    ),
    prev as (
      select p.object
      from deal_events p
      where p.deal_id = ${e.dealId}
        and p.milestone_id is not distinct from ${milestoneId}::uuid
        and p.object is not null
      order by p.seq desc
      limit 1
    ),
    ev as (
      insert into deal_events (deal_id, milestone_id, type, actor_id, data,
                               object_type, object, previous_attributes)
      select ${e.dealId}, ${milestoneId}::uuid, ${e.type}, ${e.actorId ?? null}::uuid,
             ${JSON.stringify(e.data ?? {})}::jsonb,
             snap.object_type, snap.object,
             (select jsonb_object_agg(f.key, f.value)
              from prev cross join lateral jsonb_each(prev.object) f
              where (snap.object -> f.key) is distinct from f.value)
      from snap
      returning id, deal_id, type, actor_id
    ),
    parties as (
      select distinct p.user_id, ev.id as event_id, ev.type, ev.actor_id
      from ev
      join deals d on d.id = ev.deal_id
      cross join lateral (values (d.brand_id), (d.creator_id)) as p (user_id)
      -- A bonus's escrow deal (parent_deal_id set) tells its parties through bonus.* events
      -- of the deal it rewards, not through its own.
      where p.user_id is not null and d.parent_deal_id is null
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

const iso = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const usdc = (units: SQL) => sql`trim_scale(${units}::numeric / 1000000)::text`;

/**
 * The deal as an event records it (lib/events/objects.ts documents the shape): read in the
 * event's own statement, so it is the deal as the change left it.
 */
function dealSnapshot(dealId: string): SQL {
  return sql`(select jsonb_build_object(
      'id', d.id, 'object', 'deal', 'title', d.title, 'description', d.description,
      'platform', d.platform, 'status', d.status, 'budget', ${usdc(sql`d.budget_units`)},
      'minScore', d.min_score_bps / 10000.0,
      'autoSettleConfidence', d.auto_settle_confidence_bps / 10000.0,
      'termsVersion', d.terms_version,
      'brandId', d.brand_id, 'creatorId', d.creator_id,
      'deadline', ${iso(sql`d.deadline_at`)}, 'fundedAt', ${iso(sql`d.funded_at`)},
      'metadata', d.metadata, 'createdAt', ${iso(sql`d.created_at`)})
    from deals d where d.id = ${dealId})`;
}

/** The milestone as an event records it (lib/events/objects.ts). */
function milestoneSnapshot(milestoneId: string): SQL {
  return sql`(select jsonb_build_object(
      'id', m.id, 'object', 'milestone', 'dealId', m.deal_id, 'position', m.position,
      'title', m.title, 'amount', ${usdc(sql`m.amount_units`)}, 'status', m.status,
      'revision', m.revision, 'dueAt', ${iso(sql`m.due_at`)}, 'refundTxHash', m.refund_tx_hash,
      'metadata', m.metadata, 'createdAt', ${iso(sql`m.created_at`)})
    from milestones m where m.id = ${milestoneId})`;
}

/** Where a caller's event list is: the events of deals they are a party of. */
export type EventListFilter = {
  userId: string;
  type?: DealEventType;
  /** A deal's id (its events and its milestones') or a milestone's. */
  objectId?: string;
  order: "asc" | "desc";
  /** Exclusive: events after (asc) or before (desc) this sequence number. */
  from?: number;
  limit: number;
};

/** One page of the events of every deal `userId` is a party of. */
export async function listVisibleEvents(db: DbOrTx, f: EventListFilter): Promise<DealEvent[]> {
  const rows = await db
    .select({ event: dealEvents })
    .from(dealEvents)
    .innerJoin(deals, eq(deals.id, dealEvents.dealId))
    .where(
      and(
        or(eq(deals.brandId, f.userId), eq(deals.creatorId, f.userId)),
        isNull(deals.parentDealId),
        f.type ? eq(dealEvents.type, f.type) : undefined,
        f.objectId
          ? or(eq(dealEvents.dealId, f.objectId), eq(dealEvents.milestoneId, f.objectId))
          : undefined,
        f.from !== undefined
          ? f.order === "asc"
            ? gt(dealEvents.seq, f.from)
            : lt(dealEvents.seq, f.from)
          : undefined,
      ),
    )
    .orderBy(f.order === "asc" ? asc(dealEvents.seq) : desc(dealEvents.seq))
    .limit(f.limit);
  return rows.map((r) => r.event);
}

/** The sequence number of an event `userId` may see, or undefined. */
export async function visibleEventSeq(
  db: DbOrTx,
  userId: string,
  eventId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ seq: dealEvents.seq })
    .from(dealEvents)
    .innerJoin(deals, eq(deals.id, dealEvents.dealId))
    .where(
      and(
        eq(dealEvents.id, eventId),
        or(eq(deals.brandId, userId), eq(deals.creatorId, userId)),
        isNull(deals.parentDealId),
      ),
    );
  return row?.seq;
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
