import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/api/deals/[id]/events/route";
import * as readRoute from "@/app/api/deals/[id]/messages/read/route";
import * as messagesRoute from "@/app/api/deals/[id]/messages/route";
import { MessageList } from "@/components/deals/messages-panel";
import { getDb } from "@/db/client";
import {
  dealEvents,
  emailOutbox,
  notifications,
  rateLimits,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";
import { MESSAGE_MAX_CHARS, postMessage } from "@/lib/deals/messages";
import { listNotifications } from "@/lib/notify/inbox";
import { dealBetween } from "../helpers/events";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// Messages on every deal (issue 24, item 2): one thread between the deal's brand and its
// creator, plain text (rendered escaped), limited in length and rate, with a read marker per
// party, and each message an event (inbox, e-mail, webhooks, timeline).

const send = (user: TestUser, dealId: string, body: unknown) =>
  call(messagesRoute.POST, { params: { id: dealId }, token: user.token, body });
const list = (user: TestUser, dealId: string, query = "") =>
  call(messagesRoute.GET, {
    params: { id: dealId },
    token: user.token,
    path: `/api/deals/${dealId}/messages${query}`,
  });
const read = (user: TestUser, dealId: string, body: unknown = {}) =>
  call(readRoute.POST, { params: { id: dealId }, token: user.token, body });

async function pair() {
  const brand = await makeUser("organization");
  const creator = await makeUser("creator");
  const { dealId } = await dealBetween(brand, creator);
  return { brand, creator, dealId };
}

describe("deal messages", () => {
  it("posts plain text both ways, newest first, with unread counts per party", async () => {
    const { brand, creator, dealId } = await pair();
    const first = await send(brand, dealId, { body: "  Welcome aboard!\nShoot on Friday?  " });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.message).toMatchObject({
      dealId,
      author: { id: brand.user.id, role: "brand" },
      body: "Welcome aboard!\nShoot on Friday?",
    });
    expect((await list(creator, dealId)).body.unreadCount).toBe(1);
    expect((await list(brand, dealId)).body.unreadCount).toBe(0);

    await send(brand, dealId, { body: "Also: #ad in the first line." });
    const seen = await list(creator, dealId);
    expect(seen.status).toBe(200);
    expect(seen.body.unreadCount).toBe(2);
    expect(seen.body.messages.map((m: { body: string }) => m.body)).toEqual([
      "Also: #ad in the first line.",
      "Welcome aboard!\nShoot on Friday?",
    ]);

    // Reading up to the first leaves the second unread; reading all clears it.
    const upToFirst = await read(creator, dealId, { upTo: first.body.message.id });
    expect(upToFirst.body).toEqual({ unreadCount: 1 });
    expect((await read(creator, dealId)).body).toEqual({ unreadCount: 0 });
    // The marker never moves back.
    expect((await read(creator, dealId, { upTo: first.body.message.id })).body).toEqual({
      unreadCount: 0,
    });

    // A reply is unread for the brand, and replying reads the thread for the creator.
    await send(creator, dealId, { body: "Friday works." });
    expect((await list(brand, dealId)).body.unreadCount).toBe(1);
    expect((await list(creator, dealId)).body.unreadCount).toBe(0);
  });

  it("pages with a signed cursor", async () => {
    const { brand, creator, dealId } = await pair();
    for (let i = 1; i <= 5; i++) await send(i % 2 ? brand : creator, dealId, { body: `m${i}` });
    const one = await list(brand, dealId, "?limit=2");
    expect(one.body.messages.map((m: { body: string }) => m.body)).toEqual(["m5", "m4"]);
    const two = await list(
      brand,
      dealId,
      `?limit=2&cursor=${encodeURIComponent(one.body.nextCursor)}`,
    );
    expect(two.body.messages.map((m: { body: string }) => m.body)).toEqual(["m3", "m2"]);
    const three = await list(
      brand,
      dealId,
      `?limit=2&cursor=${encodeURIComponent(two.body.nextCursor)}`,
    );
    expect(three.body.messages.map((m: { body: string }) => m.body)).toEqual(["m1"]);
    expect(three.body.nextCursor).toBeNull();
    const bad = await list(brand, dealId, "?cursor=forged.cursor");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });

  it("keeps markup as text: stored and returned as sent, rendered escaped", async () => {
    const { brand, creator, dealId } = await pair();
    const body = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
    const res = await send(creator, dealId, { body });
    expect(res.body.message.body).toBe(body);
    const got = await list(brand, dealId);
    expect(got.body.messages[0].body).toBe(body);
    const html = renderToStaticMarkup(
      createElement(MessageList, {
        messages: got.body.messages,
        deal: { brand: { id: brand.user.id, name: "Acme", email: "a@x" }, creator: null },
        viewer: "brand",
      }),
    );
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("refuses an empty or over-long body with 400", async () => {
    const { brand, dealId } = await pair();
    for (const body of [
      { body: "" },
      { body: " \n " },
      {},
      { body: "x".repeat(MESSAGE_MAX_CHARS + 1) },
    ]) {
      const res = await send(brand, dealId, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request" });
      expect(res.body.error.details[0].path).toEqual(["body"]);
    }
    expect((await send(brand, dealId, { body: "y".repeat(MESSAGE_MAX_CHARS) })).status).toBe(201);
  });

  it("limits each person's rate across every deal and every instance, exactly, under concurrency", async () => {
    const { brand, creator, dealId } = await pair();
    const other = await dealBetween(brand, creator, "Second deal");
    const db = await getDb();
    // One instant for every call: the fixed window cannot roll over in the middle of the test.
    const now = Date.now();
    const opts = { limits: { perMinute: 3, perHour: 100 }, now };
    await postMessage(db, brand.user, dealId, { body: "1" }, opts);
    await postMessage(db, brand.user, other.dealId, { body: "2" }, opts);
    await postMessage(db, brand.user, dealId, { body: "3" }, opts);
    await expect(
      postMessage(db, brand.user, other.dealId, { body: "4" }, opts),
    ).rejects.toMatchObject({ code: "rate_limited", status: 429 });
    // The creator has their own allowance.
    await postMessage(db, creator.user, dealId, { body: "hi" }, opts);

    // The counter is a row in the database (lib/rate-limit.ts), so concurrent senders (on any
    // instance) get exactly the limit through: 21 at once, the default 20 a minute.
    const fresh = await pair();
    const results = await Promise.allSettled(
      Array.from({ length: 21 }, (_, i) =>
        postMessage(db, fresh.brand.user, fresh.dealId, { body: `n${i}` }, { now }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(["rate_limited"]);
    expect((await list(fresh.creator, fresh.dealId, "?limit=100")).body.messages).toHaveLength(20);
  });

  it("answers 429 with the envelope and Retry-After past the limit, storing nothing", async () => {
    const { brand, creator, dealId } = await pair();
    const db = await getDb();
    // This minute's window and the next are full (whichever the request lands in).
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await db.insert(rateLimits).values(
      [minute, minute + 60_000].map((t) => ({
        bucket: `messages:${brand.user.id}:minute`,
        windowStart: new Date(t),
        count: 20,
      })),
    );
    const res = await send(brand, dealId, { body: "one too many" });
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({
      code: "rate_limited",
      details: { limit: 20 },
    });
    expect(res.body.error.requestId).toEqual(expect.any(String));
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("ratelimit-limit")).toBe("20");
    expect((await list(creator, dealId)).body.messages).toEqual([]);
  });

  it("tells the other party: inbox, e-mail, webhook and the timeline", async () => {
    const { brand, creator, dealId } = await pair();
    const db = await getDb();
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        userId: creator.user.id,
        url: "https://hooks.example/messages",
        eventTypes: ["message.created"],
        secret: "whsec_test",
      })
      .returning();
    const res = await send(brand, dealId, { body: "Can you post by Friday?" });
    const [event] = await db.select().from(dealEvents).where(eq(dealEvents.dealId, dealId));
    expect(event).toMatchObject({
      type: "message.created",
      actorId: brand.user.id,
      milestoneId: null,
      data: { messageId: res.body.message.id, body: "Can you post by Friday?" },
    });
    const eventId = event?.id ?? "";
    expect(
      await db
        .select({ u: notifications.userId })
        .from(notifications)
        .where(eq(notifications.eventId, eventId)),
    ).toEqual([{ u: creator.user.id }]);
    expect(
      await db
        .select({ u: emailOutbox.userId })
        .from(emailOutbox)
        .where(eq(emailOutbox.eventId, eventId)),
    ).toEqual([{ u: creator.user.id }]);
    expect(
      await db
        .select({ e: webhookDeliveries.endpointId })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, eventId)),
    ).toEqual([{ e: endpoint?.id }]);
    const inbox = await listNotifications(db, creator.user, { limit: 5 });
    expect(inbox.items[0]).toMatchObject({
      title: expect.stringContaining("sent a message"),
      detail: "Can you post by Friday?",
    });
    const timeline = await call(eventsRoute.GET, { params: { id: dealId }, token: creator.token });
    expect(timeline.body.events.map((e: { type: string }) => e.type)).toContain("message.created");
  });

  it("shows a third party nothing, and needs a creator to talk to", async () => {
    const { brand, creator, dealId } = await pair();
    await send(brand, dealId, { body: "private" });
    const stranger = await makeUser("creator");
    const otherBrand = await makeUser("organization");
    for (const u of [stranger, otherBrand]) {
      for (const res of [
        await list(u, dealId),
        await send(u, dealId, { body: "hello" }),
        await read(u, dealId),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
    }
    expect((await list(creator, dealId)).body.messages).toHaveLength(1);
    const unauthenticated = await call(messagesRoute.GET, { params: { id: dealId } });
    expect(unauthenticated.status).toBe(401);

    // An open deal nobody took: a prospect sees the deal but not a thread; the brand cannot write yet.
    const open = await dealBetween(brand, null, "Open deal");
    expect((await list(stranger, open.dealId)).status).toBe(404);
    const early = await send(brand, open.dealId, { body: "anyone?" });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("invalid_state");
    // A read marker pointing at another deal's message is not found.
    const elsewhere = (await list(brand, dealId)).body.messages[0].id;
    expect((await read(brand, open.dealId, { upTo: elsewhere })).status).toBe(404);
  });
});
