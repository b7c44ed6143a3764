import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/api/deals/[id]/events/route";
import * as attachmentRoute from "@/app/api/deals/[id]/messages/[messageId]/attachment/route";
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
import { resetEnvCache } from "@/lib/env";
import { listNotifications } from "@/lib/notify/inbox";
import { resetStorageCache } from "@/lib/storage";
import { dealBetween } from "../helpers/events";
import { call, TEST_ORIGIN } from "../helpers/http";
import { pngWithMetadata, SECRET } from "../helpers/media";
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

describe("message attachments", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "milestone-messages-"));
    process.env.STORAGE_DIR = dir;
    resetEnvCache();
    resetStorageCache();
  });
  afterAll(() => {
    delete process.env.STORAGE_DIR;
    resetEnvCache();
    resetStorageCache();
    rmSync(dir, { recursive: true, force: true });
  });

  /** POST …/messages as the browser's form does: multipart with the file. */
  async function sendForm(
    who: TestUser,
    dealId: string,
    body: string,
    file: { bytes: Buffer; type: string; name: string },
  ) {
    const form = new FormData();
    form.set("body", body);
    form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const req = new Request(`${TEST_ORIGIN}/api/deals/${dealId}/messages`, {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${who.token}` },
    });
    const res = await messagesRoute.POST(req, { params: Promise.resolve({ id: dealId }) });
    return { status: res.status, body: await res.json() };
  }
  const fetchFile = (who: TestUser, dealId: string, messageId: string) =>
    attachmentRoute.GET(
      new Request(`${TEST_ORIGIN}/x`, { headers: { authorization: `Bearer ${who.token}` } }),
      { params: Promise.resolve({ id: dealId, messageId }) },
    );
  const stored = () =>
    (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(png|jpg)$/.test(f));

  it("sends an image with a message: metadata removed, streamed to the two parties only", async () => {
    const { brand, creator, dealId } = await pair();
    const png = await pngWithMetadata();
    const res = await sendForm(creator, dealId, "The cover, as discussed.", {
      bytes: png,
      type: "image/png",
      name: "cover.png",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { message } = res.body;
    expect(message).toMatchObject({
      body: "The cover, as discussed.",
      attachment: {
        url: `/api/deals/${dealId}/messages/${message.id}/attachment`,
        contentType: "image/png",
        kind: "image",
        name: "cover.png",
      },
    });
    const got = await fetchFile(brand, dealId, message.id);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("cache-control")).toBe("private, no-store");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
    // The event carries it for webhooks; the list shows it.
    const listed = await list(brand, dealId);
    expect(listed.body.messages[0].attachment.url).toBe(message.attachment.url);
    const db = await getDb();
    const [event] = await db.select().from(dealEvents).where(eq(dealEvents.dealId, dealId));
    expect(event?.data).toMatchObject({ attachment: { url: message.attachment.url } });

    // Nobody else gets it, nor a message without a file.
    const stranger = await makeUser("organization");
    expect((await fetchFile(stranger, dealId, message.id)).status).toBe(404);
    const plain = await send(brand, dealId, { body: "Thanks" });
    expect(plain.body.message.attachment).toBeNull();
    expect((await fetchFile(brand, dealId, plain.body.message.id)).status).toBe(404);
  });

  it("refuses a file that lies about its type, or a message without text, and stores nothing", async () => {
    const { creator, dealId } = await pair();
    const before = stored().length;
    const png = await pngWithMetadata();
    const lying = await sendForm(creator, dealId, "Here", {
      bytes: png,
      type: "image/jpeg",
      name: "cover.jpg",
    });
    expect(lying.status).toBe(415);
    expect(lying.body.error.code).toBe("unsupported_media_type");
    const page = await sendForm(creator, dealId, "Here", {
      bytes: Buffer.from("<html><script>alert(1)</script></html>"),
      type: "image/png",
      name: "x.png",
    });
    expect(page.status).toBe(415);
    const empty = await sendForm(creator, dealId, "  ", {
      bytes: png,
      type: "image/png",
      name: "cover.png",
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0].path).toEqual(["body"]);
    expect(stored().length).toBe(before);
    expect((await list(creator, dealId)).body.messages).toEqual([]);
  });
});
