import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { listVisibleEvents, visibleEventSeq } from "@/db/queries/events";
import { type DealEvent, dealEventTypes, eventObjectTypes } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { decodeCursor, encodeCursor, pageQuery } from "@/lib/pagination";

// Events as a resource (GET /api/events), Stripe-style: each event of the activity log with
// what it is about as it was right after (`data.object`, a snapshot written with the event,
// db/queries/events.ts) and, when it changed an object recorded before, the fields it changed
// with their earlier values (`data.previous_attributes`). A webhook delivery's body is this
// same object (lib/webhooks/deliver.ts), so a receiver and a poller see the same thing.
//
// Snapshots: a deal `{ id, object: "deal", title, description, platform, status, budget,
// minScore, autoSettleConfidence, termsVersion, brandId, creatorId, deadline, fundedAt, metadata, createdAt }`; a
// milestone `{ id, object: "milestone", dealId, position, title, amount, status, revision,
// dueAt, refundTxHash, metadata, createdAt }` (amounts are USDC decimal strings).

/** The fields of an event row the event object is built from (a delivery's claim has them). */
export type EventRow = Pick<
  DealEvent,
  "id" | "type" | "createdAt" | "dealId" | "milestoneId" | "actorId" | "data" | "object"
> & { previousAttributes: Record<string, unknown> | null };

/**
 * The event object. `data` keeps the event's own details and the ids it had before events
 * were a resource (`dealId`, `milestoneId`), so receivers written then still work.
 */
export function eventJson(e: EventRow): EventJson {
  return {
    id: e.id,
    object: "event",
    type: e.type,
    createdAt: e.createdAt.toISOString(),
    dealId: e.dealId,
    milestoneId: e.milestoneId,
    actor: e.actorId ? { id: e.actorId } : null,
    test: false,
    data: {
      ...e.data,
      dealId: e.dealId,
      milestoneId: e.milestoneId,
      // The snapshot db/queries/events.ts wrote with the event: a deal or a milestone.
      object: (e.object ?? null) as EventJson["data"]["object"],
      ...(e.previousAttributes ? { previous_attributes: e.previousAttributes } : {}),
    },
  };
}

// ── Schemas ───────────────────────────────────────────────────────────────────────────

export const eventSchema = z
  .object({
    id: z.uuid().describe("De-duplicate on it: a webhook may arrive more than once"),
    object: z.literal("event"),
    type: z.enum(dealEventTypes),
    createdAt: z.iso.datetime(),
    dealId: z.uuid(),
    milestoneId: z.uuid().nullable(),
    actor: z.object({ id: z.uuid() }).nullable().describe("Null when the service did it"),
    test: z.boolean().describe("A test event from the webhook settings"),
    data: z
      .looseObject({
        object: z
          .looseObject({ id: z.string(), object: z.enum(eventObjectTypes) })
          .nullable()
          .describe("The deal or milestone as it was right after the event"),
        previous_attributes: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("For a change: the fields it changed, with their values before"),
      })
      .describe("The snapshot, the changed fields, and the event's own details"),
  })
  .meta({ id: "Event" });
export type EventJson = z.infer<typeof eventSchema>;

export const eventPageResponse = z.object({
  events: z.array(eventSchema),
  nextCursor: z
    .string()
    .nullable()
    .describe(
      "desc: the next (older) page, null at the end. asc: where to continue from, always set",
    ),
});

export const MAX_WAIT_SECONDS = 30;

export const eventListQuery = pageQuery.extend({
  type: z.enum(dealEventTypes).optional().describe("Only events of this type"),
  object: z
    .uuid()
    .optional()
    .describe("Only events about this deal (and its milestones) or milestone"),
  order: z
    .enum(["desc", "asc"])
    .default("desc")
    .describe("desc: newest first (browse). asc: oldest first (replay, follow)"),
  after: z.uuid().optional().describe("asc: start after this event (instead of a cursor)"),
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .default(0)
    .describe("asc: with nothing new yet, wait up to this many seconds for an event (long-poll)"),
});
export type EventListQuery = z.infer<typeof eventListQuery>;

// ── The list ──────────────────────────────────────────────────────────────────────────

const seqSchema = z.number().int().nonnegative();
const POLL_MS = 500;

/**
 * GET /api/events: every event of the deals the caller is a party of. Newest first by
 * default; `order=asc` replays oldest first from a cursor or an event, and with `wait`
 * holds the request until something new is recorded (or the time is up, or the client
 * leaves): a listener follows the account without an inbound connection.
 */
export async function listEvents(
  db: DbOrTx,
  caller: { id: string },
  q: EventListQuery,
  signal?: AbortSignal,
): Promise<{ events: EventJson[]; nextCursor: string | null }> {
  const list = `events:${q.order}`;
  let from = q.cursor ? decodeCursor(list, q.cursor, seqSchema) : undefined;
  if (from === undefined && q.after && q.order === "asc") {
    from = await visibleEventSeq(db, caller.id, q.after);
    if (from === undefined) throw notFound("Event");
  }
  const read = () =>
    listVisibleEvents(db, {
      userId: caller.id,
      type: q.type,
      objectId: q.object,
      order: q.order,
      from,
      limit: q.limit + 1,
    });
  let rows = await read();
  if (q.order === "asc" && q.wait > 0) {
    const until = Date.now() + q.wait * 1000;
    while (rows.length === 0 && Date.now() < until && !signal?.aborted) {
      await delay(Math.min(POLL_MS, until - Date.now()), undefined, { signal }).catch(() => {});
      rows = await read();
    }
  }
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const nextCursor =
    q.order === "asc"
      ? encodeCursor(list, last?.seq ?? from ?? 0)
      : rows.length > q.limit && last
        ? encodeCursor(list, last.seq)
        : null;
  return { events: page.map(eventJson), nextCursor };
}
