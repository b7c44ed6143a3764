import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as readRoute from "@/app/api/notifications/read/route";
import * as listRoute from "@/app/api/notifications/route";
import * as unreadRoute from "@/app/api/notifications/unread/route";
import * as webhooksRoute from "@/app/api/webhooks/route";
import { getDb } from "@/db/client";
import {
  dealEvents,
  emailOutbox,
  notifications,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";
import { recordEvent } from "@/lib/events/events";
import { httpMailer, outboxMailer } from "@/lib/notify/mailer";
import { drainEmails } from "@/lib/notify/outbox";
import { dealBetween, record } from "../helpers/events";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// Notifications are built from the activity log: the other party is told, the actor is not;
// written in the event's own transaction; read through the inbox API; e-mailed through the
// pluggable sender.

let brand: TestUser;
let creator: TestUser;

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
  await (await getDb())
    .update(users)
    .set({ displayName: "Acme" })
    .where(eq(users.id, brand.user.id));
});

async function notifiedUsers(dealId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ userId: notifications.userId, type: dealEvents.type })
    .from(notifications)
    .innerJoin(dealEvents, eq(dealEvents.id, notifications.eventId))
    .where(eq(dealEvents.dealId, dealId));
  return rows.map((r) => r.userId).sort();
}

async function emailedUsers(dealId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ userId: emailOutbox.userId })
    .from(emailOutbox)
    .innerJoin(dealEvents, eq(dealEvents.id, emailOutbox.eventId))
    .where(eq(dealEvents.dealId, dealId));
  return rows.map((r) => String(r.userId)).sort();
}

const unread = async (u: TestUser) =>
  (await call(unreadRoute.GET, { token: u.token })).body.unreadCount as number;

describe("notifications from the activity log", () => {
  it("tell the other party, not the actor; the service's events tell both", async () => {
    const { dealId, milestoneId } = await dealBetween(brand, creator);
    await record({ dealId, milestoneId, type: "submitted", actorId: creator.user.id });
    expect(await notifiedUsers(dealId)).toEqual([brand.user.id]);
    expect(await emailedUsers(dealId)).toEqual([brand.user.id]);

    const other = await dealBetween(brand, creator);
    await record({ dealId: other.dealId, type: "completed" }); // no actor: the service
    expect(await notifiedUsers(other.dealId)).toEqual([brand.user.id, creator.user.id].sort());

    const untaken = await dealBetween(brand, null);
    await record({ dealId: untaken.dealId, type: "created", actorId: brand.user.id });
    expect(await notifiedUsers(untaken.dealId)).toEqual([]);
  });

  it("a transaction that fails writes no event, notification, e-mail or delivery", async () => {
    const db = await getDb();
    await db.insert(webhookEndpoints).values({
      userId: brand.user.id,
      url: "https://example.com/hook",
      secret: "whsec_test",
    });
    const { dealId, milestoneId } = await dealBetween(brand, creator);
    await expect(
      db.transaction(async (tx) => {
        await recordEvent(tx, { dealId, milestoneId, type: "appealed", actorId: creator.user.id });
        throw new Error("the change failed after its event");
      }),
    ).rejects.toThrow(/failed after its event/);
    expect(await db.select().from(dealEvents).where(eq(dealEvents.dealId, dealId))).toEqual([]);
    expect(await notifiedUsers(dealId)).toEqual([]);
    expect(await emailedUsers(dealId)).toEqual([]);

    // The same event committed writes all three.
    await record({ dealId, milestoneId, type: "appealed", actorId: creator.user.id });
    expect(await notifiedUsers(dealId)).toEqual([brand.user.id]);
    expect(await emailedUsers(dealId)).toEqual([brand.user.id]);
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .innerJoin(dealEvents, eq(dealEvents.id, webhookDeliveries.eventId))
      .where(eq(dealEvents.dealId, dealId));
    expect(deliveries).toHaveLength(1);
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, brand.user.id));
  });

  it("the unread count rises with the other party's actions and clears when read", async () => {
    const me = await makeUser("organization");
    const them = await makeUser("creator");
    expect(await unread(me)).toBe(0);
    const { dealId, milestoneId } = await dealBetween(me, them, "Summer drop");
    await record({ dealId, type: "taken", actorId: them.user.id });
    await record({
      dealId,
      milestoneId,
      type: "submitted",
      actorId: them.user.id,
      data: { revision: 2, url: "https://example.com/p/1" },
    });
    await record({ dealId, milestoneId, type: "approved", actorId: me.user.id });
    expect(await unread(me)).toBe(2);
    expect(await unread(them)).toBe(1);

    const list = await call(listRoute.GET, { token: me.token });
    expect(list.status).toBe(200);
    expect(list.body.unreadCount).toBe(2);
    expect(list.body.notifications.map((n: { title: string }) => n.title)).toEqual([
      "The creator submitted milestone 'Launch post' (revision 2)",
      "The creator took the deal 'Summer drop'",
    ]);
    expect(list.body.notifications[0]).toMatchObject({
      read: false,
      detail: "https://example.com/p/1",
      event: { type: "submitted", dealId, milestoneId, actor: "creator" },
    });

    // Marking another user's notification is a no-op, not an error.
    const theirs = await call(listRoute.GET, { token: them.token });
    const foreign = await call(readRoute.POST, {
      token: me.token,
      body: { ids: [theirs.body.notifications[0].id] },
    });
    expect(foreign.body).toEqual({ marked: 0, unreadCount: 2 });
    expect(await unread(them)).toBe(1);

    const first = await call(readRoute.POST, {
      token: me.token,
      body: { ids: [list.body.notifications[0].id] },
    });
    expect(first.body).toEqual({ marked: 1, unreadCount: 1 });
    const unreadOnly = await call(listRoute.GET, {
      token: me.token,
      path: "/api/notifications?unread=true",
    });
    expect(unreadOnly.body.notifications).toHaveLength(1);
    const all = await call(readRoute.POST, { token: me.token, body: { all: true } });
    expect(all.body).toEqual({ marked: 1, unreadCount: 0 });
    expect(await unread(me)).toBe(0);

    const bad = await call(readRoute.POST, { token: me.token, body: { ids: ["nope"] } });
    expect(bad.status).toBe(400);
    const none = await call(listRoute.GET, {});
    expect(none.status).toBe(401);
  });

  it("pages through the inbox newest first, each notification exactly once", async () => {
    const me = await makeUser("organization");
    const them = await makeUser("creator");
    const { dealId } = await dealBetween(me, them);
    for (let i = 0; i < 5; i++)
      await record({ dealId, type: "submitted", actorId: them.user.id, data: { revision: i + 1 } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await call(listRoute.GET, {
        token: me.token,
        path: `/api/notifications?limit=2${qs}`,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.notifications.map((n: { title: string }) => n.title));
      cursor = page.body.nextCursor;
      // A new notification arriving between pages does not disturb the ones already paged.
      if (seen.length === 2) await record({ dealId, type: "taken", actorId: them.user.id });
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen[0]).toMatch(/revision 5/);
  });
});

describe("e-mail", () => {
  it("the embedded sender marks the outbox row sent with the inbox's words", async () => {
    const { dealId, milestoneId } = await dealBetween(brand, creator, "Autumn teaser");
    await record({
      dealId,
      milestoneId,
      type: "approved",
      actorId: brand.user.id,
      data: { score: 0.8, payout: "8", refund: "2" },
    });
    const db = await getDb();
    // The outbox is shared with every other test file of the run (some record thousands of
    // events, and full reconciles drain it too): this deal's mail goes to the front of the
    // queue, and the drain runs until it is sent, whoever's drain sends it.
    const ours = sql`${emailOutbox.eventId} in (select ${dealEvents.id} from ${dealEvents} where ${dealEvents.dealId} = ${dealId})`;
    await db.update(emailOutbox).set({ nextAttemptAt: sql`now() - interval '1 day'` }).where(ours);
    const readMail = async () =>
      (
        await db
          .select()
          .from(emailOutbox)
          .innerJoin(dealEvents, eq(dealEvents.id, emailOutbox.eventId))
          .where(eq(dealEvents.dealId, dealId))
      )[0];
    for (let round = 0; round < 20 && (await readMail())?.email_outbox.status !== "sent"; round++)
      await drainEmails(db, { mailer: outboxMailer });
    const mail = await readMail();
    expect(mail?.email_outbox).toMatchObject({
      status: "sent",
      toAddress: creator.user.email,
      subject: "Acme approved milestone 'Launch post' at 80 %",
    });
    expect(mail?.email_outbox.body).toContain("8 USDC to the creator, 2 USDC back to the brand.");
    expect(mail?.email_outbox.body).toContain(`/deals/${dealId}`);
  });

  describe("through a provider's HTTP API (a local fake provider)", () => {
    let server: Server;
    let url = "";
    const got: { auth?: string; key?: string; body: Record<string, unknown> }[] = [];
    let failKey = "";

    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => {
          body += c;
        });
        req.on("end", () => {
          got.push({
            auth: req.headers.authorization,
            key: req.headers["idempotency-key"] as string,
            body: JSON.parse(body),
          });
          if (req.headers["idempotency-key"] === failKey) {
            failKey = "";
            res.writeHead(503).end();
          } else res.writeHead(200, { "content-type": "application/json" }).end('{"id":"m1"}');
        });
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`;
    });
    afterAll(() => new Promise((r) => server.close(r)));

    it("posts the mail with the key, retries after a failure, then marks it sent", async () => {
      const { dealId } = await dealBetween(brand, creator, "Winter promo");
      await record({ dealId, type: "taken", actorId: creator.user.id });
      const db = await getDb();
      const mine = async () =>
        (
          await db
            .select({ row: emailOutbox })
            .from(emailOutbox)
            .innerJoin(dealEvents, eq(dealEvents.id, emailOutbox.eventId))
            .where(eq(dealEvents.dealId, dealId))
        ).map((r) => r.row);
      const [row] = await mine();
      if (!row) throw new Error("no e-mail queued");
      failKey = row.id; // the provider refuses this mail once

      const mailer = httpMailer({ url, apiKey: "re_test", from: "Milestone <n@example.test>" });
      await drainEmails(db, { mailer });
      const [retrying] = await mine();
      expect(retrying).toMatchObject({ status: "pending", attempts: 1 });
      expect(retrying?.error).toMatch(/503/);
      expect(retrying?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

      // Time passes (the retry is due), and the provider takes it.
      await db
        .update(emailOutbox)
        .set({ nextAttemptAt: sql`now() - interval '1 second'` })
        .where(inArray(emailOutbox.id, [row.id]));
      await drainEmails(db, { mailer });
      const ours = got.filter((g) => g.key === row.id);
      expect(ours).toHaveLength(2);
      expect(ours[1]).toMatchObject({
        auth: "Bearer re_test",
        body: {
          from: "Milestone <n@example.test>",
          to: [brand.user.email],
          subject: "The creator took the deal 'Winter promo'",
        },
      });
      const [sent] = await mine();
      expect(sent?.status).toBe("sent");
    });
  });
});

describe("webhook endpoints are listed per user with cursor pagination", () => {
  it("returns every endpoint once in pages", async () => {
    const owner = await makeUser("organization");
    const ids: string[] = [];
    const db = await getDb();
    for (let i = 0; i < 3; i++) {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ userId: owner.user.id, url: `https://example.com/${i}`, secret: "whsec_x" })
        .returning();
      ids.push(row?.id as string);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await call(webhooksRoute.GET, {
        token: owner.token,
        path: `/api/webhooks?limit=2${qs}`,
      });
      seen.push(...page.body.endpoints.map((e: { id: string }) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(ids.sort());
  });
});
