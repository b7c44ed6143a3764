import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as dealPATCH } from "@/app/api/deals/[id]/route";
import { POST as dealsPOST } from "@/app/api/deals/route";
import { GET as eventsGET } from "@/app/api/events/route";
import { GET as deliveriesGET } from "@/app/api/webhooks/[id]/deliveries/route";
import { POST as webhooksPOST } from "@/app/api/webhooks/route";
import { getDb } from "@/db/client";
import { resetEnvCache } from "@/lib/env";
import { eventSchema } from "@/lib/events/objects";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// Events as a resource (issue 26): GET /api/events lists every event of the caller's deals,
// each with the object's snapshot and, for a change, previous_attributes; filters by type and
// object; cursor pages; order=asc&wait long-polls. A webhook delivery's body is the same
// event object.

let brand: TestUser;
let stranger: TestUser;
let dealId: string;
let milestoneId: string;
let endpointId: string;

const list = (who: TestUser, query = "") =>
  call(eventsGET, { token: who.token, path: `/api/events${query ? `?${query}` : ""}` });

const savedHosts = process.env.FETCH_ALLOWED_HOSTS;
afterAll(() => {
  if (savedHosts === undefined) delete process.env.FETCH_ALLOWED_HOSTS;
  else process.env.FETCH_ALLOWED_HOSTS = savedHosts;
  resetEnvCache();
});

beforeAll(async () => {
  process.env.FETCH_ALLOWED_HOSTS = "127.0.0.1:9";
  resetEnvCache();
  [brand, stranger] = await Promise.all([makeUser("organization"), makeUser("organization")]);
  const hook = await call(webhooksPOST, {
    token: brand.token,
    body: { url: "http://127.0.0.1:9/hook", eventTypes: ["edited"] },
  });
  expect(hook.status).toBe(201);
  endpointId = hook.body.endpoint.id;
  const created = await call(dealsPOST, {
    token: brand.token,
    body: {
      title: "Events as a resource",
      metadata: { order_id: "E-1" },
      milestones: [{ title: "Post", amount: 5 }],
    },
  });
  expect(created.status).toBe(201);
  dealId = created.body.deal.id;
  milestoneId = created.body.deal.milestones[0].id;
  const edited = await call(dealPATCH, {
    token: brand.token,
    method: "PATCH",
    params: { id: dealId },
    body: { title: "Events as a resource, renamed", platform: "tiktok" },
  });
  expect(edited.status).toBe(200);
}, 60_000);

describe("GET /api/events", () => {
  it("lists the caller's events newest first, each with its snapshot and, for a change, previous_attributes", async () => {
    const res = await list(brand, `object=${dealId}`);
    expect(res.status).toBe(200);
    const [edited, created] = res.body.events;
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(["edited", "created"]);
    for (const e of res.body.events) expect(() => eventSchema.parse(e)).not.toThrow();

    expect(created).toMatchObject({ object: "event", type: "created", dealId, test: false });
    expect(created.data.object).toMatchObject({
      id: dealId,
      object: "deal",
      title: "Events as a resource",
      platform: "other",
      status: "unfunded",
      budget: "5",
      termsVersion: 1,
      metadata: { order_id: "E-1" },
    });
    expect(created.data).not.toHaveProperty("previous_attributes");

    expect(edited.data.object).toMatchObject({
      title: "Events as a resource, renamed",
      platform: "tiktok",
      termsVersion: 2,
    });
    // Exactly the fields the edit changed, with their values before it.
    expect(edited.data.previous_attributes).toEqual({
      title: "Events as a resource",
      platform: "other",
      termsVersion: 1,
    });
    // The event's own details are still there (receivers written before events had objects).
    expect(edited.data).toMatchObject({ dealId, milestoneId: null });
  });

  it("filters by type and by object, pages with a cursor, shows nothing to others", async () => {
    const edited = await list(brand, `type=edited&object=${dealId}`);
    expect(edited.body.events.map((e: { type: string }) => e.type)).toEqual(["edited"]);
    const byMilestone = await list(brand, `object=${milestoneId}`);
    expect(byMilestone.body.events).toEqual([]);

    const first = await list(brand, `object=${dealId}&limit=1`);
    expect(first.body.events).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await list(
      brand,
      `object=${dealId}&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.body.events[0].type).toBe("created");
    expect(second.body.nextCursor).toBeNull();

    expect((await list(stranger, `object=${dealId}`)).body.events).toEqual([]);
    expect((await list(stranger)).body.events).toEqual([]);
    expect((await list(brand, "type=nope")).status).toBe(400);
  });

  it("follows the account: order=asc from an event, waiting for the next one", async () => {
    const newest = (await list(brand, "limit=1")).body.events[0];
    const empty = await list(brand, `order=asc&after=${newest.id}`);
    expect(empty.body.events).toEqual([]);
    expect(empty.body.nextCursor).toEqual(expect.any(String));

    // A long-poll is open when the next change happens; it answers with that change.
    const polling = list(
      brand,
      `order=asc&wait=30&cursor=${encodeURIComponent(empty.body.nextCursor)}`,
    );
    const change = await call(dealPATCH, {
      token: brand.token,
      method: "PATCH",
      params: { id: dealId },
      body: { description: "now with a description" },
    });
    expect(change.status).toBe(200);
    const res = await polling;
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(1);
    expect(res.body.events[0]).toMatchObject({ type: "edited", dealId });
    expect(res.body.events[0].data.previous_attributes).toEqual({
      description: "",
      termsVersion: 2,
    });
    // Someone else's event is never an answer to the brand's poll.
    expect((await list(stranger, `order=asc&after=${newest.id}`)).status).toBe(404);
  });

  it("sends webhooks the same event object", async () => {
    // Deliver to the brand's endpoint (nothing listens there: the attempt fails, and the
    // delivery log still records the body it sent).
    await drainWebhooks(await getDb(), { endpointId });
    const log = await call(deliveriesGET, { token: brand.token, params: { id: endpointId } });
    const sent = log.body.deliveries.filter((d: { request: unknown }) => d.request);
    expect(sent.length).toBeGreaterThan(0);
    const listed = (await list(brand, `object=${dealId}&type=edited&limit=100`)).body.events;
    for (const d of sent)
      expect(JSON.parse(d.request.body)).toEqual(
        listed.find((e: { id: string }) => e.id === d.eventId),
      );
  });
});
