import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { findVisibleDeal } from "@/db/queries/deals";
import { insertEventWithFanOut, listDealEventsAfter, type NewDealEvent } from "@/db/queries/events";
import { type DealEvent, dealEventTypes } from "@/db/schema";
import { iso, nextCursor } from "@/lib/api/fields";
import { notFound } from "@/lib/errors";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";

// The activity log. Every state change of a deal or its milestones appends one row, in the
// same database transaction as the change: a change that rolls back leaves no event, and
// no event exists without its change. The timeline, notifications and webhooks read this.

export type { NewDealEvent };

/**
 * Appends an event and fans it out, in one statement: an inbox notification and an e-mail
 * (outbox row) for each party of the deal who did not cause it (both parties when the
 * service did), and a webhook delivery for every enabled endpoint of either party that
 * subscribes to the type. Call it with the transaction that makes the change, so a change
 * that rolls back leaves none of them. The e-mail's text is rendered when it is sent
 * (lib/notify/outbox.ts), from the same event the inbox renders.
 */
export async function recordEvent(tx: DbOrTx, e: NewDealEvent): Promise<void> {
  await insertEventWithFanOut(tx, e);
}

export const dealEventSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(dealEventTypes),
    dealId: z.uuid(),
    milestoneId: z.uuid().nullable(),
    actor: z.object({ id: z.uuid() }).nullable(),
    data: z.record(z.string(), z.unknown()),
    createdAt: iso,
  })
  .meta({ id: "DealEvent" });
export type DealEventJson = z.infer<typeof dealEventSchema>;
/** GET /api/deals/:id/events: the deal's activity log, a page at a time. */
export const dealEventPageResponse = z.object({ events: z.array(dealEventSchema), nextCursor });

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
  const rows = await listDealEventsAfter(db, dealId, { after, limit: page.limit + 1 });
  return toPage(rows, page.limit, eventJson, (r) => encodeCursor(`events:${dealId}`, r.seq));
}
