import { and, desc, eq, lt, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { mergedMetadata } from "@/db/queries/metadata";
import {
  type DealEventType,
  dealEvents,
  type WebhookDelivery,
  type WebhookEndpoint,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";

// Webhook endpoints and their deliveries. Endpoint reads filter by owner as well as id;
// a delivery is reached only through an endpoint of the owner's.

/** Keyset position of a row in a newest-first list: created_at to the microsecond, id. */
export type Position = { at: string; id: string };

const positionOf = (createdAt: AnyPgColumn) =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')`;

function before(cols: { createdAt: AnyPgColumn; id: AnyPgColumn }, p?: Position): SQL | undefined {
  if (!p) return undefined;
  const at = sql`(${p.at}::timestamp at time zone 'UTC')`;
  return or(lt(cols.createdAt, at), and(eq(cols.createdAt, at), lt(cols.id, p.id))) as SQL;
}

export async function findEndpoint(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<WebhookEndpoint | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  return row;
}

export async function listEndpointRows(
  db: DbOrTx,
  userId: string,
  p: { limit: number; before?: Position },
) {
  return db
    .select({ endpoint: webhookEndpoints, position: positionOf(webhookEndpoints.createdAt) })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), before(webhookEndpoints, p.before)))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(p.limit);
}

export async function countEndpoints(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId));
  return row?.n ?? 0;
}

/** A delivery's event type: its event's, or its test event's. */
const deliveryEventType = sql<DealEventType>`coalesce(${dealEvents.type}, ${webhookDeliveries.testEvent} ->> 'type')`;

/** An endpoint's delivery log, newest first, with each delivery's event type. */
export async function listDeliveryRows(
  db: DbOrTx,
  endpointId: string,
  p: { limit: number; before?: Position },
) {
  return db
    .select({
      delivery: webhookDeliveries,
      eventType: deliveryEventType,
      position: positionOf(webhookDeliveries.createdAt),
    })
    .from(webhookDeliveries)
    .leftJoin(dealEvents, eq(dealEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), before(webhookDeliveries, p.before)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(p.limit);
}

export async function insertEndpoint(
  db: DbOrTx,
  p: {
    userId: string;
    url: string;
    eventTypes: DealEventType[];
    secret: string;
    metadata: Record<string, string>;
  },
): Promise<WebhookEndpoint | undefined> {
  const [row] = await db.insert(webhookEndpoints).values(p).returning();
  return row;
}

/**
 * Changes an endpoint of the owner's. Enabling clears the service's disabled notice;
 * disabling stamps disabled_at. Undefined when the owner has no such endpoint.
 */
export async function updateOwnEndpoint(
  db: DbOrTx,
  userId: string,
  id: string,
  p: {
    url?: string;
    eventTypes?: DealEventType[];
    enabled?: boolean;
    metadata?: Record<string, string>;
  },
): Promise<WebhookEndpoint | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(p.url !== undefined ? { url: p.url } : {}),
      ...(p.eventTypes !== undefined ? { eventTypes: p.eventTypes } : {}),
      ...(p.enabled === true ? { enabled: true, disabledReason: null, disabledAt: null } : {}),
      ...(p.enabled === false ? { enabled: false, disabledAt: sql`now()` } : {}),
      ...(p.metadata !== undefined
        ? { metadata: mergedMetadata(webhookEndpoints.metadata, p.metadata) }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row;
}

/** Deletes an endpoint of the owner's (its deliveries go with it); false when none. */
export async function deleteOwnEndpoint(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const gone = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return gone.length > 0;
}

export async function setEndpointSecret(
  db: DbOrTx,
  userId: string,
  id: string,
  secret: string,
): Promise<WebhookEndpoint | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secret, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row;
}

// ── the delivery outbox ─────────────────────────────────────────────────────────────────

/** A claimed delivery with its endpoint and its event (or its test event, sent as it is). */
export type ClaimedDelivery = {
  id: string;
  attempts: number;
  createdAt: Date;
  endpointId: string;
  url: string;
  secret: string;
  eventId: string;
  eventType: DealEventType;
  eventCreatedAt: Date;
  dealId: string;
  milestoneId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
  object: Record<string, unknown> | null;
  previousAttributes: Record<string, unknown> | null;
  /** A test event (POST /api/webhooks/:id/test): the body is this object. */
  testEvent: Record<string, unknown> | null;
};

const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

/**
 * Takes up to `limit` due deliveries of enabled endpoints for `leaseSeconds`: whoever holds
 * the lease sends; a lease that runs out (a crashed sender) lets the next drain take the row
 * again. Rows being claimed by a concurrent drain are skipped, not waited for. Counts the
 * attempt at claim time, so a sender that crashes on a row still uses up its retries.
 */
export async function claimDueDeliveries(
  db: DbOrTx,
  p: { limit: number; leaseSeconds: number; endpointId?: string },
): Promise<ClaimedDelivery[]> {
  const only = p.endpointId ? sql`and d.endpoint_id = ${p.endpointId}` : sql``;
  const rows = await db.execute(sql`
    with due as (
      update webhook_deliveries
      set lease_expires_at = now() + make_interval(secs => ${p.leaseSeconds}),
          attempts = attempts + 1,
          updated_at = now()
      where id in (
        select d.id
        from webhook_deliveries d
        join webhook_endpoints w on w.id = d.endpoint_id
        where d.status = 'pending'
          and d.next_attempt_at <= now()
          and (d.lease_expires_at is null or d.lease_expires_at <= now())
          and w.enabled
          ${only}
        order by d.next_attempt_at
        limit ${p.limit}
        for update of d skip locked
      )
      returning id, attempts, created_at, endpoint_id, event_id, test_event
    )
    select due.id, due.attempts, due.created_at, due.endpoint_id,
           w.url, w.secret, due.test_event,
           coalesce(e.id::text, due.test_event ->> 'id') as event_id,
           coalesce(e.type, due.test_event ->> 'type') as event_type,
           coalesce(e.created_at, (due.test_event ->> 'createdAt')::timestamptz) as event_created_at,
           e.deal_id, e.milestone_id, e.actor_id, e.data, e.object, e.previous_attributes
    from due
    join webhook_endpoints w on w.id = due.endpoint_id
    left join deal_events e on e.id = due.event_id`);
  return rowsOf(rows).map((r) => ({
    id: r.id as string,
    attempts: Number(r.attempts),
    createdAt: new Date(r.created_at as string),
    endpointId: r.endpoint_id as string,
    url: r.url as string,
    secret: r.secret as string,
    eventId: r.event_id as string,
    eventType: r.event_type as DealEventType,
    eventCreatedAt: new Date(r.event_created_at as string),
    dealId: (r.deal_id as string | null) ?? "",
    milestoneId: (r.milestone_id as string | null) ?? null,
    actorId: (r.actor_id as string | null) ?? null,
    data: json<Record<string, unknown> | null>(r.data) ?? {},
    object: json<Record<string, unknown> | null>(r.object) ?? null,
    previousAttributes: json<Record<string, unknown> | null>(r.previous_attributes) ?? null,
    testEvent: json<Record<string, unknown> | null>(r.test_event) ?? null,
  }));
}

/** postgres.js returns the rows array itself; PGlite returns { rows }. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return ((result as { rows?: unknown[] }).rows ?? []) as Record<string, unknown>[];
}

/** Delivered: never sent again by the drain (only an explicit resend sends it again). */
/** What an attempt sent and what the receiver answered (the delivery log shows it). */
export type Exchange = {
  requestBody?: string;
  responseHeaders?: Record<string, string> | null;
  responseBody?: string | null;
};

const exchangeColumns = (x: Exchange = {}) =>
  x.requestBody === undefined
    ? {}
    : {
        requestBody: x.requestBody,
        responseHeaders: x.responseHeaders ?? null,
        responseBody: x.responseBody ?? null,
      };

export async function markDelivered(
  db: DbOrTx,
  id: string,
  statusCode: number,
  exchange?: Exchange,
): Promise<WebhookDelivery | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      ...exchangeColumns(exchange),
      status: "delivered",
      deliveredAt: sql`now()`,
      lastStatusCode: statusCode,
      lastError: null,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending")))
    .returning();
  return row;
}

/**
 * A failed attempt: retried at `nextAttemptAt`, or `failed` when `giveUp`. Fenced by the
 * attempt number: a sender whose lease ran out and whose row another drain took since
 * changes nothing.
 */
export async function markAttemptFailed(
  db: DbOrTx,
  p: {
    id: string;
    attempts: number;
    statusCode: number | null;
    error: string;
    retryInSeconds: number | null;
    exchange?: Exchange;
  },
): Promise<WebhookDelivery | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      ...exchangeColumns(p.exchange),
      status: p.retryInSeconds === null ? "failed" : "pending",
      nextAttemptAt:
        p.retryInSeconds === null
          ? sql`${webhookDeliveries.nextAttemptAt}`
          : sql`now() + make_interval(secs => ${p.retryInSeconds})`,
      lastStatusCode: p.statusCode,
      lastError: p.error.slice(0, 500),
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(webhookDeliveries.id, p.id),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, p.attempts),
      ),
    )
    .returning();
  return row;
}

/**
 * Disables an endpoint whose delivery just ran out of retries, unless anything was
 * delivered to it since that delivery was created (then the endpoint is not persistently
 * failing, that one event just was). Its other pending deliveries fail with it.
 */
export async function disableIfPersistentlyFailing(
  db: DbOrTx,
  p: { endpointId: string; since: Date; reason: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const disabled = await tx
      .update(webhookEndpoints)
      .set({
        enabled: false,
        disabledReason: p.reason,
        disabledAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(webhookEndpoints.id, p.endpointId),
          eq(webhookEndpoints.enabled, true),
          sql`not exists (select 1 from webhook_deliveries d
                          where d.endpoint_id = ${p.endpointId}
                            and d.delivered_at >= ${p.since.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ id: webhookEndpoints.id });
    if (disabled.length) await failPending(tx, p.endpointId, "endpoint disabled");
    return disabled.length > 0;
  });
}

/** Pending deliveries of an endpoint that is being disabled will not be sent. */
export async function failPending(db: DbOrTx, endpointId: string, error: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed", lastError: error, leaseExpiresAt: null, updatedAt: sql`now()` })
    .where(
      and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")),
    );
}

/** A test event's delivery to an endpoint, due now (sent through the same outbox loop). */
export async function insertTestDelivery(
  db: DbOrTx,
  endpointId: string,
  testEvent: Record<string, unknown>,
): Promise<WebhookDelivery> {
  const [row] = await db.insert(webhookDeliveries).values({ endpointId, testEvent }).returning();
  if (!row) throw new Error("insert returned no delivery");
  return row;
}

/** Puts a delivery back in the queue, due now, with a fresh retry budget (POST …/resend). */
export async function requeueDelivery(
  db: DbOrTx,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      status: "pending",
      attempts: 0,
      nextAttemptAt: sql`now()`,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpointId, endpointId),
        // One being sent right now is left to finish.
        sql`(${webhookDeliveries.leaseExpiresAt} is null or ${webhookDeliveries.leaseExpiresAt} <= now())`,
      ),
    )
    .returning();
  return row;
}

/** One delivery of an endpoint, with its event type. */
export async function findDelivery(db: DbOrTx, endpointId: string, deliveryId: string) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: deliveryEventType })
    .from(webhookDeliveries)
    .leftJoin(dealEvents, eq(dealEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
  return row;
}
