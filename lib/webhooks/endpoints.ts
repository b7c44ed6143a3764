import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import {
  countEndpoints,
  deleteOwnEndpoint,
  failPending,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  insertTestDelivery,
  listDeliveryRows,
  listEndpointRows,
  requeueDelivery,
  setEndpointSecret,
  updateOwnEndpoint,
} from "@/db/queries/webhooks";
import {
  type DealEventType,
  dealEventTypes,
  deliveryStatuses,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "@/db/schema";
import { iso, metadataJson, nextCursor } from "@/lib/api/fields";
import { AppError, notFound } from "@/lib/errors";
import { assertMetadataSize } from "@/lib/metadata";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";
import type { createEndpointBody, updateEndpointBody } from "@/lib/webhooks/schemas";
import { newWebhookSecret } from "@/lib/webhooks/signature";
import { makeTestEvent } from "@/lib/webhooks/test-events";
import { assertWebhookUrl } from "@/lib/webhooks/url";

// A user's webhook endpoints: register (the secret is shown once), list, change, delete,
// rotate the secret; each endpoint's delivery log and resend. Every lookup is by owner and id.

export const MAX_ENDPOINTS_PER_USER = 20;

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    eventTypes: z.array(z.enum(dealEventTypes)).describe("Empty: every type"),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .describe("Why the service disabled it (persistent failure)"),
    disabledAt: iso.nullable(),
    metadata: metadataJson,
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "WebhookEndpoint" });
export const webhookDeliverySchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid().describe("The event's id: the receiver de-duplicates on it"),
    eventType: z.enum(dealEventTypes),
    status: z.enum(deliveryStatuses),
    attempts: z.number().int().nonnegative(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: iso.nullable().describe("When the next attempt is due (pending only)"),
    deliveredAt: iso.nullable(),
    test: z.boolean().describe("A test event (POST /api/webhooks/:id/test)"),
    request: z
      .object({ body: z.string() })
      .nullable()
      .describe("The last attempt's request body (null before the first)"),
    response: z
      .object({
        status: z.number().int().nullable(),
        headers: z.record(z.string(), z.string()),
        body: z.string().describe("The first 2 KiB"),
      })
      .nullable()
      .describe("What the receiver answered to the last attempt (null: no answer)"),
    createdAt: iso,
  })
  .meta({ id: "WebhookDelivery" });
export const webhookEndpointResponse = z.object({ endpoint: webhookEndpointSchema });
export const webhookSecretResponse = z.object({
  endpoint: webhookEndpointSchema,
  secret: z.string().describe("The signing secret: shown in this answer only"),
});
export const webhookEndpointPageResponse = z.object({
  endpoints: z.array(webhookEndpointSchema),
  nextCursor,
});
/** DELETE /api/webhooks/:id answers this. */
export const deletedResponse = z.object({ deleted: z.literal(true) });
export const webhookDeliveryPageResponse = z.object({
  deliveries: z.array(webhookDeliverySchema),
  nextCursor,
});
export const webhookDeliveryResponse = z.object({ delivery: webhookDeliverySchema });
export type WebhookEndpointJson = z.infer<typeof webhookEndpointSchema>;
export type WebhookDeliveryJson = z.infer<typeof webhookDeliverySchema>;

const endpointJson = (w: WebhookEndpoint): WebhookEndpointJson => ({
  id: w.id,
  url: w.url,
  eventTypes: w.eventTypes as DealEventType[],
  enabled: w.enabled,
  disabledReason: w.disabledReason,
  disabledAt: w.disabledAt?.toISOString() ?? null,
  metadata: w.metadata,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

const deliveryJson = (d: WebhookDelivery, eventType: DealEventType): WebhookDeliveryJson => ({
  id: d.id,
  eventId: d.eventId ?? String(d.testEvent?.id),
  eventType,
  status: d.status,
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
  test: d.testEvent !== null,
  request: d.requestBody !== null ? { body: d.requestBody } : null,
  response:
    d.responseHeaders !== null
      ? { status: d.lastStatusCode, headers: d.responseHeaders, body: d.responseBody ?? "" }
      : null,
  createdAt: d.createdAt.toISOString(),
});

type Caller = { id: string };
const position = z.tuple([z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/), z.uuid()]);

async function ownEndpoint(db: Db, caller: Caller, id: string): Promise<WebhookEndpoint> {
  const row = await findEndpoint(db, caller.id, id);
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

/** POST /api/webhooks: the secret is in this answer only. */
export async function createEndpoint(
  db: Db,
  caller: Caller,
  body: z.infer<typeof createEndpointBody>,
): Promise<{ endpoint: WebhookEndpointJson; secret: string }> {
  const url = await assertWebhookUrl(body.url);
  if ((await countEndpoints(db, caller.id)) >= MAX_ENDPOINTS_PER_USER)
    throw new AppError(
      "conflict",
      `You already have ${MAX_ENDPOINTS_PER_USER} webhook endpoints; delete one first.`,
    );
  const secret = newWebhookSecret();
  const row = await insertEndpoint(db, {
    userId: caller.id,
    url,
    eventTypes: [...new Set(body.eventTypes ?? [])],
    secret,
    metadata: body.metadata ?? {},
  });
  if (!row) throw new Error("insert returned no endpoint");
  return { endpoint: endpointJson(row), secret };
}

export async function listEndpoints(
  db: Db,
  caller: Caller,
  page: PageQuery,
): Promise<Page<WebhookEndpointJson>> {
  const p = page.cursor ? decodeCursor("webhooks", page.cursor, position) : undefined;
  const rows = await listEndpointRows(db, caller.id, {
    limit: page.limit + 1,
    before: p ? { at: p[0], id: p[1] } : undefined,
  });
  return toPage(
    rows,
    page.limit,
    (r) => endpointJson(r.endpoint),
    (r) => encodeCursor("webhooks", [r.position, r.endpoint.id]),
  );
}

export async function getEndpoint(db: Db, caller: Caller, id: string) {
  return endpointJson(await ownEndpoint(db, caller, id));
}

/**
 * PATCH /api/webhooks/:id. Enabling clears the service's disabled notice; disabling fails
 * whatever was still pending (resend brings any of it back).
 */
export async function updateEndpoint(
  db: Db,
  caller: Caller,
  id: string,
  body: z.infer<typeof updateEndpointBody>,
): Promise<WebhookEndpointJson> {
  await ownEndpoint(db, caller, id);
  const url = body.url !== undefined ? await assertWebhookUrl(body.url) : undefined;
  return db.transaction(async (tx) => {
    const row = await updateOwnEndpoint(tx, caller.id, id, {
      url,
      eventTypes: body.eventTypes !== undefined ? [...new Set(body.eventTypes)] : undefined,
      enabled: body.enabled,
      metadata: body.metadata,
    });
    if (!row) throw notFound("Webhook endpoint");
    assertMetadataSize(row.metadata);
    if (body.enabled === false) await failPending(tx, id, "endpoint disabled");
    return endpointJson(row);
  });
}

export async function deleteEndpoint(db: Db, caller: Caller, id: string): Promise<void> {
  if (!(await deleteOwnEndpoint(db, caller.id, id))) throw notFound("Webhook endpoint");
}

/** POST /api/webhooks/:id/rotate-secret: the old secret stops signing at once. */
export async function rotateSecret(
  db: Db,
  caller: Caller,
  id: string,
): Promise<{ endpoint: WebhookEndpointJson; secret: string }> {
  const secret = newWebhookSecret();
  const row = await setEndpointSecret(db, caller.id, id, secret);
  if (!row) throw notFound("Webhook endpoint");
  return { endpoint: endpointJson(row), secret };
}

/** GET /api/webhooks/:id/deliveries: newest first, with status codes and errors. */
export async function listDeliveries(
  db: Db,
  caller: Caller,
  endpointId: string,
  page: PageQuery,
): Promise<Page<WebhookDeliveryJson>> {
  await ownEndpoint(db, caller, endpointId);
  const list = `deliveries:${endpointId}`;
  const p = page.cursor ? decodeCursor(list, page.cursor, position) : undefined;
  const rows = await listDeliveryRows(db, endpointId, {
    limit: page.limit + 1,
    before: p ? { at: p[0], id: p[1] } : undefined,
  });
  return toPage(
    rows,
    page.limit,
    (r) => deliveryJson(r.delivery, r.eventType),
    (r) => encodeCursor(list, [r.position, r.delivery.id]),
  );
}

/**
 * POST /api/webhooks/:id/test: a made-up event of `type` queued for this endpoint, due now
 * (the route sends it right after answering), through the real signing and retry path.
 */
export async function sendTestEvent(
  db: Db,
  caller: Caller,
  endpointId: string,
  type: DealEventType,
): Promise<WebhookDeliveryJson> {
  const endpoint = await ownEndpoint(db, caller, endpointId);
  if (!endpoint.enabled)
    throw new AppError("invalid_state", "This endpoint is disabled; enable it to send events.");
  const row = await insertTestDelivery(db, endpointId, makeTestEvent(type));
  return deliveryJson(row, type);
}

/**
 * POST /api/webhooks/:id/deliveries/:deliveryId/resend: queued again, due now, with a fresh
 * retry budget — also one already delivered (the receiver de-duplicates on the event id).
 */
export async function resendDelivery(
  db: Db,
  caller: Caller,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryJson> {
  const endpoint = await ownEndpoint(db, caller, endpointId);
  if (!endpoint.enabled)
    throw new AppError("invalid_state", "This endpoint is disabled; enable it before resending.");
  const found = await findDelivery(db, endpointId, deliveryId);
  if (!found) throw notFound("Delivery");
  const row = await requeueDelivery(db, endpointId, deliveryId);
  if (!row) throw new AppError("invalid_state", "This delivery is being sent right now.");
  return deliveryJson(row, found.eventType);
}
