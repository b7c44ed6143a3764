import type { Db } from "@/db/client";
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  disableIfPersistentlyFailing,
  markAttemptFailed,
  markDelivered,
} from "@/db/queries/webhooks";
import { env } from "@/lib/env";
import { eventJson } from "@/lib/events/objects";
import { log } from "@/lib/log";
import { SafeFetchError, safeFetch } from "@/lib/net/safe-fetch";
import type { ReconcileReport } from "@/lib/settle/reconcile";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from "@/lib/webhooks/signature";

// The webhook outbox loop. A delivery row is written with its event (lib/events); the
// reconcile routine (and so the cron route and `npm run reconcile`) drains due rows:
// claim with a lease (FOR UPDATE SKIP LOCKED, committed at once), send with no transaction
// open, record the result. Delivered rows are never sent again by the loop. A crash after
// the receiver got a request but before the row was marked means the same event (same
// Milestone-Event-Id) is sent again once the lease runs out: at-least-once, so receivers
// de-duplicate on the event id.

/** Attempts before a delivery fails: the retries span more than 24 hours (see below). */
export const MAX_ATTEMPTS = 10;

/** Wait after the `attempt`-th failure: 1 min, 3, 9, 27, 81 min, ~4 h, then 8 h. */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(60 * 3 ** Math.max(0, attempt - 1), 8 * 3600);
}

/**
 * The request body: the event object of GET /api/events (lib/events/objects.ts), or the
 * test event as it was made; the same bytes on every attempt (an event never changes).
 */
export function webhookPayload(d: ClaimedDelivery): string {
  if (d.testEvent) return JSON.stringify(d.testEvent);
  return JSON.stringify(
    eventJson({
      id: d.eventId,
      type: d.eventType,
      createdAt: d.eventCreatedAt,
      dealId: d.dealId,
      milestoneId: d.milestoneId,
      actorId: d.actorId,
      data: d.data,
      object: d.object,
      previousAttributes: d.previousAttributes,
    }),
  );
}

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_BODY_CAP = 2048;

/** What one attempt sent and got back (for the delivery log). */
export type AttemptExchange = {
  requestBody: string;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
};

export type SendResult = (
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string }
) & { exchange?: AttemptExchange };

/** One POST to the endpoint through the safe fetcher (address checks, no redirects, time cap). */
export async function sendDelivery(
  d: ClaimedDelivery,
  opts: { timeoutMs?: number; nowSeconds?: number } = {},
): Promise<SendResult> {
  const body = webhookPayload(d);
  const t = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const exchange = (res?: { headers: Record<string, string>; text(): string }) => ({
    requestBody: body,
    responseHeaders: res ? res.headers : null,
    responseBody: res ? res.text().slice(0, RESPONSE_BODY_CAP) : null,
  });
  try {
    const res = await safeFetch(d.url, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": "Milestone-Webhooks/1.0",
        [SIGNATURE_HEADER]: signatureHeader(d.secret, body, t),
        [EVENT_ID_HEADER]: d.eventId,
      },
      timeoutMs: opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS,
      maxBytes: 64 * 1024,
      maxRedirects: 0,
    });
    if (res.status >= 200 && res.status < 300)
      return { ok: true, status: res.status, exchange: exchange(res) };
    return { ok: false, status: res.status, error: `HTTP ${res.status}`, exchange: exchange(res) };
  } catch (err) {
    if (err instanceof SafeFetchError)
      return {
        ok: false,
        status: null,
        error: `${err.code}: ${err.message}`,
        exchange: exchange(),
      };
    return {
      ok: false,
      status: null,
      error: `network_error: ${(err as Error).message}`,
      exchange: exchange(),
    };
  }
}

export type DeliveryOutcome = "delivered" | "retrying" | "failed" | "superseded";

/** Records what one attempt did; disables the endpoint when a delivery runs out of retries. */
export async function recordResult(
  db: Db,
  d: ClaimedDelivery,
  result: SendResult,
): Promise<DeliveryOutcome> {
  if (result.ok)
    return (await markDelivered(db, d.id, result.status, result.exchange))
      ? "delivered"
      : "superseded";
  const giveUp = d.attempts >= MAX_ATTEMPTS;
  const row = await markAttemptFailed(db, {
    id: d.id,
    attempts: d.attempts,
    statusCode: result.status,
    error: result.error,
    retryInSeconds: giveUp ? null : retryDelaySeconds(d.attempts),
    exchange: result.exchange,
  });
  if (!row) return "superseded";
  if (!giveUp) return "retrying";
  const disabled = await disableIfPersistentlyFailing(db, {
    endpointId: d.endpointId,
    since: d.createdAt,
    reason: `Disabled after ${MAX_ATTEMPTS} failed attempts over more than 24 hours to deliver event ${d.eventId} (last: ${result.error}). Fix the endpoint, enable it again, and resend what it missed.`,
  });
  if (disabled)
    log.warn("webhook endpoint disabled after persistent failure", { endpointId: d.endpointId });
  return "failed";
}

/** Its part of the reconcile answer (lib/settle/reconcile.ts reconcileResponse). */
export type WebhookDrainReport = NonNullable<ReconcileReport["outbox"]>["webhooks"];

/**
 * Sends every due delivery (batches of `batchSize`, at most `maxBatches`), each batch's
 * requests in parallel. `endpointId` limits it to one endpoint (a resend sends at once).
 */
export async function drainWebhooks(
  db: Db,
  opts: { batchSize?: number; maxBatches?: number; timeoutMs?: number; endpointId?: string } = {},
): Promise<WebhookDrainReport> {
  const report: WebhookDrainReport = { delivered: 0, retrying: 0, failed: 0 };
  const timeoutMs = opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS;
  // The lease outlives the longest send by a margin, so a live sender is never overtaken.
  const leaseSeconds = Math.ceil(timeoutMs / 1000) + 60;
  for (let batch = 0; batch < (opts.maxBatches ?? 10); batch++) {
    const claimed = await claimDueDeliveries(db, {
      limit: opts.batchSize ?? 20,
      leaseSeconds,
      endpointId: opts.endpointId,
    });
    if (claimed.length === 0) break;
    const outcomes = await Promise.all(
      claimed.map(async (d) => {
        try {
          return await recordResult(db, d, await sendDelivery(d, { timeoutMs }));
        } catch (err) {
          // The row keeps its lease and is taken again when it runs out.
          log.error("webhook delivery not recorded", { deliveryId: d.id, err });
          return "superseded" as const;
        }
      }),
    );
    for (const o of outcomes) if (o !== "superseded") report[o]++;
  }
  return report;
}
