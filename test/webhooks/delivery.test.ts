import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as resendRoute from "@/app/api/webhooks/[id]/deliveries/[deliveryId]/resend/route";
import * as deliveriesRoute from "@/app/api/webhooks/[id]/deliveries/route";
import * as endpointRoute from "@/app/api/webhooks/[id]/route";
import * as webhooksRoute from "@/app/api/webhooks/route";
import { closeDb, getDb } from "@/db/client";
import { claimDueDeliveries } from "@/db/queries/webhooks";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { resetEnvCache } from "@/lib/env";
import {
  drainWebhooks,
  MAX_ATTEMPTS,
  recordResult,
  retryDelaySeconds,
  sendDelivery,
} from "@/lib/webhooks/deliver";
import { dealBetween, record } from "../helpers/events";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// Webhook delivery end to end: endpoints registered through the API, events recorded through
// the real recordEvent, the outbox drained as the reconcile routine drains it, and a
// standalone receiver (a node:http server) that checks every signature itself.

type Received = { headers: IncomingMessage["headers"]; body: string; verified: boolean };
type Behaviour = "ok" | "fail" | "hang" | "gzip-stall";

let server: Server;
let port: number;
let received: Received[] = [];
let script: Behaviour[] = [];
const hanging: ServerResponse[] = [];
/** The secret the receiver checks with (the one POST /api/webhooks returned). */
let secret = "";

/** What a receiver does: HMAC-SHA256 of `${t}.${body}` with the secret, compared in constant time. */
function receiverVerifies(header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((p) => p.split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  const given = Buffer.from(String(parts.v1 ?? ""));
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}

let brand: TestUser;
let creator: TestUser;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const sig = req.headers["milestone-signature"];
      received.push({
        headers: req.headers,
        body,
        verified: receiverVerifies(Array.isArray(sig) ? sig[0] : sig, body),
      });
      const behaviour = script.shift() ?? "ok";
      if (behaviour === "hang") {
        hanging.push(res);
        return;
      }
      if (behaviour === "gzip-stall") {
        // A 200 whose gzip body stops after a few bytes and never goes on.
        const zipped = gzipSync("thanks, and a long story after it ".repeat(50));
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        res.write(zipped.subarray(0, 12));
        hanging.push(res);
        return;
      }
      res.writeHead(behaviour === "ok" ? 200 : 500, { "content-type": "text/plain" });
      res.end(behaviour === "ok" ? "thanks" : "boom");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  // The receiver is on loopback: exempt by configuration, as a local test host must be.
  process.env.FETCH_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise((resolve) => server.close(resolve));
  delete process.env.FETCH_ALLOWED_HOSTS;
  resetEnvCache();
});

beforeEach(() => {
  received = [];
  script = [];
});

async function register(owner: TestUser, body: Record<string, unknown> = {}) {
  const res = await call(webhooksRoute.POST, {
    token: owner.token,
    body: { url: `http://127.0.0.1:${port}/hook`, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  secret = res.body.secret;
  return res.body.endpoint as { id: string };
}

async function deliveriesOf(endpointId: string) {
  const db = await getDb();
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

/** Time passes for an endpoint's queue: every pending retry (and any lease) is due now. */
async function makeDue(endpointId: string) {
  const db = await getDb();
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: sql`now() - interval '1 second'`, leaseExpiresAt: null })
    .where(eq(webhookDeliveries.endpointId, endpointId));
}

describe("webhook delivery", () => {
  it("posts each event once, signed so a standalone receiver can verify it", async () => {
    const endpoint = await register(brand);
    expect(secret).toMatch(/^whsec_/);
    const { dealId, milestoneId } = await dealBetween(brand, creator);
    await record({
      dealId,
      milestoneId,
      type: "submitted",
      actorId: creator.user.id,
      data: { revision: 1 },
    });

    const report = await drainWebhooks(await getDb(), { endpointId: endpoint.id });
    expect(report).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got?.verified).toBe(true);
    expect(got?.headers["content-type"]).toBe("application/json");
    const payload = JSON.parse(got?.body ?? "{}");
    expect(payload).toMatchObject({
      type: "submitted",
      data: { dealId, milestoneId, revision: 1 },
    });
    expect(got?.headers["milestone-event-id"]).toBe(payload.id);
    expect(new Date(payload.createdAt).toISOString()).toBe(payload.createdAt);

    // A tampered body or another secret does not verify.
    expect(receiverVerifies(got?.headers["milestone-signature"] as string, `${got?.body} `)).toBe(
      false,
    );

    // Drained again: nothing is due, nothing is sent.
    expect(await drainWebhooks(await getDb(), { endpointId: endpoint.id })).toEqual({
      delivered: 0,
      retrying: 0,
      failed: 0,
    });
    expect(received).toHaveLength(1);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
  });

  it("retries after a 500 with backoff, then delivers the same event", async () => {
    const endpoint = await register(brand);
    const { dealId } = await dealBetween(brand, creator);
    await record({ dealId, type: "taken", actorId: creator.user.id });
    script = ["fail", "ok"];

    const db = await getDb();
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ retrying: 1 });
    const [failed] = await deliveriesOf(endpoint.id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    expect(failed?.lastError).toBe("HTTP 500");
    // Not due yet: the next attempt waits out the backoff.
    expect(failed?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ retrying: 0 });
    expect(received).toHaveLength(1);

    await makeDue(endpoint.id);
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 1 });
    expect(received).toHaveLength(2);
    expect(received[1]?.headers["milestone-event-id"]).toBe(
      received[0]?.headers["milestone-event-id"],
    );
    expect(received[1]?.body).toBe(received[0]?.body);
    expect(received.every((r) => r.verified)).toBe(true);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
  });

  it("retries after a timeout", async () => {
    const endpoint = await register(brand);
    const { dealId } = await dealBetween(brand, creator);
    await record({ dealId, type: "funded", actorId: brand.user.id, data: { amount: "10" } });
    script = ["hang", "ok"];

    const db = await getDb();
    // A short timeout from configuration, not a sleep: the receiver never answers the first.
    expect(await drainWebhooks(db, { endpointId: endpoint.id, timeoutMs: 300 })).toMatchObject({
      retrying: 1,
    });
    const [timedOut] = await deliveriesOf(endpoint.id);
    expect(timedOut).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(timedOut?.lastError).toMatch(/^timeout/);

    await makeDue(endpoint.id);
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 1 });
    expect(received).toHaveLength(2);
  });

  it("a receiver that stalls mid-way through a gzip answer fails the attempt at the timeout; the last one disables the endpoint", async () => {
    const endpoint = await register(brand);
    const { dealId } = await dealBetween(brand, creator);
    await record({ dealId, type: "cancelled", actorId: brand.user.id });
    const db = await getDb();
    script = ["gzip-stall"];
    expect(await drainWebhooks(db, { endpointId: endpoint.id, timeoutMs: 300 })).toEqual({
      delivered: 0,
      retrying: 1,
      failed: 0,
    });
    const [first] = await deliveriesOf(endpoint.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(first?.lastError).toMatch(/^timeout/);

    // The last attempt stalls too: the delivery fails and the endpoint is disabled.
    await db
      .update(webhookDeliveries)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    await makeDue(endpoint.id);
    script = ["gzip-stall"];
    expect(await drainWebhooks(db, { endpointId: endpoint.id, timeoutMs: 300 })).toMatchObject({
      failed: 1,
    });
    expect(received).toHaveLength(2);
    const [last] = await deliveriesOf(endpoint.id);
    expect(last).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    expect(last?.lastError).toMatch(/^timeout/);
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(row?.enabled).toBe(false);
  }, 20_000); // A guard, not a timing assertion: before the fix the drain never returned.

  it("backs off exponentially for more than 24 hours before giving up", () => {
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const delay = retryDelaySeconds(attempt);
      if (attempt > 1) expect(delay).toBeGreaterThanOrEqual(retryDelaySeconds(attempt - 1));
      total += delay;
    }
    expect(retryDelaySeconds(2)).toBe(3 * retryDelaySeconds(1));
    expect(total).toBeGreaterThan(24 * 3600);
  });

  it("never sends a delivered event again, also after a restart; a crash before the mark resends it once", async () => {
    const endpoint = await register(brand);
    const { dealId } = await dealBetween(brand, creator);
    await record({ dealId, type: "completed" });

    // A sender claims and sends, then "crashes" before recording the result.
    const [claimed] = await claimDueDeliveries(await getDb(), {
      limit: 10,
      leaseSeconds: 60,
      endpointId: endpoint.id,
    });
    if (!claimed) throw new Error("nothing claimed");
    expect((await sendDelivery(claimed)).ok).toBe(true);
    expect(received).toHaveLength(1);

    // Restart: a new database handle (PGlite reopens its files; PostgreSQL a new pool).
    await closeDb();
    let db = await getDb();
    // While the dead sender's lease runs, nobody else sends it.
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 0 });
    expect(received).toHaveLength(1);
    // When it has run out, the event goes again, with the same event id: at-least-once.
    await makeDue(endpoint.id);
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 1 });
    expect(received).toHaveLength(2);
    expect(received[1]?.headers["milestone-event-id"]).toBe(
      received[0]?.headers["milestone-event-id"],
    );

    // Marked delivered: after another restart, with the clock moved on, it is never resent.
    await closeDb();
    db = await getDb();
    await makeDue(endpoint.id);
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 0 });
    expect(received).toHaveLength(2);
    // A late result from the crashed sender cannot undo or repeat anything either.
    expect(await recordResult(db, claimed, { ok: true, status: 200 })).toBe("superseded");
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.status).toBe("delivered");
  });

  it("concurrent drains (several instances) send each delivery once", async () => {
    const endpoint = await register(brand);
    const { dealId } = await dealBetween(brand, creator);
    for (let i = 0; i < 6; i++)
      await record({ dealId, type: "submitted", actorId: creator.user.id, data: { revision: i } });
    const db = await getDb();
    const reports = await Promise.all(
      [1, 2, 3].map(() => drainWebhooks(db, { endpointId: endpoint.id, batchSize: 2 })),
    );
    expect(reports.reduce((n, r) => n + r.delivered, 0)).toBe(6);
    expect(received).toHaveLength(6);
    expect(new Set(received.map((r) => r.headers["milestone-event-id"])).size).toBe(6);
  });

  it("delivers only the event types an endpoint subscribes to, for both parties", async () => {
    const paidOnly = await register(brand, { eventTypes: ["paid"] });
    const creatorAll = await register(creator);
    const { dealId, milestoneId } = await dealBetween(brand, creator);
    await record({ dealId, milestoneId, type: "submitted", actorId: creator.user.id });
    await record({ dealId, milestoneId, type: "paid", data: { amount: "8" } });
    const db = await getDb();
    const types = async (id: string) =>
      (
        await call(deliveriesRoute.GET, {
          token: id === paidOnly.id ? brand.token : creator.token,
          params: { id },
        })
      ).body.deliveries.map((d: { eventType: string }) => d.eventType);
    expect(await types(paidOnly.id)).toEqual(["paid"]);
    // The actor's own endpoints get its events too (webhooks are a feed, not an inbox).
    expect((await types(creatorAll.id)).sort()).toEqual(["paid", "submitted"]);
    // The log in pages of one: each delivery exactly once, newest first.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await call(deliveriesRoute.GET, {
        token: creator.token,
        params: { id: creatorAll.id },
        path: `/api/webhooks/${creatorAll.id}/deliveries?limit=1${qs}`,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.deliveries.map((d: { eventType: string }) => d.eventType));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["paid", "submitted"]);
    await drainWebhooks(db, { endpointId: paidOnly.id });
    await drainWebhooks(db, { endpointId: creatorAll.id });
  });

  it("disables an endpoint after persistent failure, with a notice; enable + resend delivers", async () => {
    const endpoint = await register(brand);
    const { dealId } = await dealBetween(brand, creator);
    await record({ dealId, type: "cancelled", actorId: brand.user.id });
    const db = await getDb();
    // The retries so far all failed: this is the last attempt.
    await db
      .update(webhookDeliveries)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    script = ["fail"];
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ failed: 1 });

    const list = await call(webhooksRoute.GET, { token: brand.token });
    const shown = list.body.endpoints.find((e: { id: string }) => e.id === endpoint.id);
    expect(shown.enabled).toBe(false);
    expect(shown.disabledReason).toMatch(/failed attempts over more than 24 hours/);

    // A disabled endpoint gets nothing queued and nothing sent.
    await record({ dealId, type: "expired" });
    await makeDue(endpoint.id);
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 0 });
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);

    const [failedRow] = await deliveriesOf(endpoint.id);
    const log = await call(deliveriesRoute.GET, {
      token: brand.token,
      params: { id: endpoint.id },
    });
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({
        status: "failed",
        eventType: "cancelled",
        attempts: MAX_ATTEMPTS,
        lastStatusCode: 500,
        nextAttemptAt: null,
      }),
    ]);

    // Resend while disabled is refused; enabling clears the notice; resend then delivers.
    const refused = await call(resendRoute.POST, {
      token: brand.token,
      params: { id: endpoint.id, deliveryId: failedRow?.id as string },
    });
    expect(refused.status).toBe(409);
    const enabled = await call(endpointRoute.PATCH, {
      token: brand.token,
      params: { id: endpoint.id },
      body: { enabled: true },
    });
    expect(enabled.body.endpoint).toMatchObject({ enabled: true, disabledReason: null });
    const cancelled = (await deliveriesOf(endpoint.id)).find(
      (d) => d.status === "failed" && d.lastStatusCode === 500,
    );
    const resent = await call(resendRoute.POST, {
      token: brand.token,
      params: { id: endpoint.id, deliveryId: cancelled?.id as string },
    });
    expect(resent.status).toBe(202);
    expect(resent.body.delivery).toMatchObject({ status: "pending", attempts: 0 });
    received = [];
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ delivered: 1 });
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]?.body ?? "{}").type).toBe("cancelled");
  });

  it("is the owner's only: another user gets 404 for the endpoint, its log and resend", async () => {
    const endpoint = await register(brand);
    const outsider = await makeUser("organization");
    for (const res of [
      await call(endpointRoute.GET, { token: outsider.token, params: { id: endpoint.id } }),
      await call(deliveriesRoute.GET, { token: outsider.token, params: { id: endpoint.id } }),
      await call(endpointRoute.DELETE, {
        method: "DELETE",
        token: outsider.token,
        params: { id: endpoint.id },
      }),
    ])
      expect(res.status).toBe(404);
    const listed = await call(webhooksRoute.GET, { token: outsider.token });
    expect(listed.body.endpoints).toEqual([]);
    // The secret is never shown again.
    const own = await call(endpointRoute.GET, { token: brand.token, params: { id: endpoint.id } });
    expect(JSON.stringify(own.body)).not.toContain("whsec_");
  });
});

describe("webhook URLs go through the outbound rules", () => {
  it.each([
    ["a private address", "http://10.1.2.3/hook"],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data"],
    ["loopback not on the allowlist", "http://127.0.0.1:9/hook"],
    ["a name that resolves to loopback", "http://localhost/hook"],
    ["IPv6 loopback", "http://[::1]/hook"],
    ["credentials in the URL", "https://user:pw@example.com/hook"],
    ["another scheme", "ftp://example.com/hook"],
  ])("refuses %s at registration", async (_name, url) => {
    const res = await call(webhooksRoute.POST, { token: brand.token, body: { url } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("says a name is not allowed without revealing what it resolves to", async () => {
    const res = await call(webhooksRoute.POST, {
      token: brand.token,
      body: { url: "http://localhost/hook" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].message).toBe(
      "localhost is not allowed; webhooks go to public addresses only.",
    );
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it("refuses a private address at delivery too (an endpoint row that got past registration)", async () => {
    const db = await getDb();
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({ userId: brand.user.id, url: `http://127.0.0.2:${port}/hook`, secret: "whsec_x" })
      .returning();
    if (!endpoint) throw new Error("no endpoint");
    const { dealId } = await dealBetween(brand, creator);
    await record({ dealId, type: "completed" });
    expect(await drainWebhooks(db, { endpointId: endpoint.id })).toMatchObject({ retrying: 1 });
    expect(received).toHaveLength(0);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.lastError).toMatch(/^blocked_address/);
  });
});
