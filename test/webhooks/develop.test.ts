import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PATCH as dealPATCH } from "@/app/api/deals/[id]/route";
import { POST as dealsPOST } from "@/app/api/deals/route";
import { POST as keysPOST } from "@/app/api/keys/route";
import { GET as deliveriesGET } from "@/app/api/webhooks/[id]/deliveries/route";
import { POST as testPOST } from "@/app/api/webhooks/[id]/test/route";
import { POST as webhooksPOST } from "@/app/api/webhooks/route";
import { getDb } from "@/db/client";
import { resetEnvCache } from "@/lib/env";
import { eventSchema } from "@/lib/events/objects";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { listen } from "@/lib/webhooks/listen";
import { verifySignature } from "@/lib/webhooks/signature";
import { inProcessFetch } from "../api/in-process-fetch";
import { signIn, type TestSession } from "../helpers/auth";
import { call } from "../helpers/http";

// Webhooks you can develop against (issue 26): a test event of any type goes through the
// real outbox (signature, headers, retries) to a receiver that verifies it, and the delivery
// log shows the request body and the receiver's status, headers and body; `npm run listen`'s
// loop follows the account's events with an API key and forwards a real event to a local
// receiver, signed with the secret it hands out, where it verifies.

type Got = { headers: IncomingMessage["headers"]; body: string };
let server: Server;
let port: number;
let got: Got[] = [];
let waiting: ((g: Got) => void)[] = [];
let brand: TestSession;

/** The next request the receiver gets. */
const nextRequest = () => new Promise<Got>((resolve) => waiting.push(resolve));

/**
 * The first request whose body is of event `type`, received already or still to come (the
 * outbox is shared: a drain of another test file may be the one that sends it).
 */
async function requestOf(type: string): Promise<Got> {
  for (;;) {
    const found = got.find((g) => JSON.parse(g.body).type === type);
    if (found) return found;
    await nextRequest();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const g = { headers: req.headers, body };
      got.push(g);
      waiting.shift()?.(g);
      res.writeHead(202, { "content-type": "text/plain", "x-receiver": "test" });
      res.end(`thanks for ${JSON.parse(body).type}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  process.env.FETCH_ALLOWED_HOSTS = `127.0.0.1:${port}`;
  resetEnvCache();
  brand = await signIn({ profileType: "organization" });
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  delete process.env.FETCH_ALLOWED_HOSTS;
  resetEnvCache();
});

beforeEach(() => {
  got = [];
  waiting = [];
});

describe("test events", () => {
  it("sends a test event of any type through the real signing path; the log shows request and response", async () => {
    const hook = await call(webhooksPOST, {
      token: brand.token,
      // Subscribed to `paid` only: a test event of another type is still sent (it was asked for).
      body: { url: `http://127.0.0.1:${port}/hook`, eventTypes: ["paid"] },
    });
    expect(hook.status).toBe(201);
    const endpointId = hook.body.endpoint.id as string;
    const secret = hook.body.secret as string;

    const queued = await call(testPOST, {
      token: brand.token,
      params: { id: endpointId },
      body: { type: "edited" },
    });
    expect(queued.status).toBe(202);
    expect(queued.body.delivery).toMatchObject({
      eventType: "edited",
      status: "pending",
      test: true,
      request: null,
      response: null,
    });

    await drainWebhooks(await getDb(), { endpointId });
    const request = await requestOf("edited");
    const sig = String(request?.headers["milestone-signature"]);
    expect(verifySignature(sig, request?.body ?? "", secret).ok).toBe(true);
    const event = eventSchema.parse(JSON.parse(request?.body ?? ""));
    expect(event).toMatchObject({ type: "edited", test: true });
    expect(request?.headers["milestone-event-id"]).toBe(event.id);
    expect(event.data.object?.object).toBe("deal");
    expect(event.data.previous_attributes).toEqual(expect.any(Object));

    const logged = async () =>
      (await call(deliveriesGET, { token: brand.token, params: { id: endpointId } })).body
        .deliveries[0];
    await expect.poll(async () => (await logged()).status).toBe("delivered");
    const delivery = await logged();
    expect(delivery).toMatchObject({
      eventId: event.id,
      eventType: "edited",
      status: "delivered",
      test: true,
      lastStatusCode: 202,
    });
    expect(delivery.request.body).toBe(request?.body);
    expect(delivery.response).toMatchObject({
      status: 202,
      body: "thanks for edited",
      headers: expect.objectContaining({ "x-receiver": "test", "content-type": "text/plain" }),
    });

    // A type that is no event is the caller's mistake; someone else's endpoint is not found.
    const bad = await call(testPOST, {
      token: brand.token,
      params: { id: endpointId },
      body: { type: "nope" },
    });
    expect(bad.status).toBe(400);
    const other = await signIn({ profileType: "organization" });
    const foreign = await call(testPOST, {
      token: other.token,
      params: { id: endpointId },
      body: { type: "created" },
    });
    expect(foreign.status).toBe(404);
  });
});

describe("npm run listen", () => {
  it("forwards a real event to a local receiver, signed with the secret it printed", async () => {
    const created = await call(dealsPOST, {
      token: brand.token,
      body: { title: "Listened deal", milestones: [{ title: "Post", amount: 3 }] },
    });
    expect(created.status).toBe(201);
    const key = await call(keysPOST, {
      cookie: brand.cookie,
      body: { name: "listener", scopes: ["read"] },
    });
    expect(key.status).toBe(201);

    const controller = new AbortController();
    let printed = "";
    let listening: Promise<void> = Promise.resolve();
    const ready = new Promise<void>((resolve) => {
      listening = listen({
        apiUrl: "http://localhost",
        apiKey: key.body.key,
        forwardTo: `http://127.0.0.1:${port}/hook`,
        fetch: inProcessFetch,
        waitSeconds: 5,
        signal: controller.signal,
        onReady: ({ secret }) => {
          printed = secret;
          resolve();
        },
      });
    });
    await ready;
    expect(printed).toMatch(/^whsec_/);

    // A real change after the listener started: the deal is renamed.
    const edited = await call(dealPATCH, {
      token: brand.token,
      method: "PATCH",
      params: { id: created.body.deal.id },
      body: { title: "Listened deal, renamed" },
    });
    expect(edited.status).toBe(200);
    const request = await requestOf("edited");
    controller.abort();
    await listening;

    const sig = String(request.headers["milestone-signature"]);
    expect(verifySignature(sig, request.body, printed).ok).toBe(true);
    const event = eventSchema.parse(JSON.parse(request.body));
    expect(event).toMatchObject({ type: "edited", dealId: created.body.deal.id, test: false });
    expect(event.data.previous_attributes).toMatchObject({ title: "Listened deal" });
    expect(request.headers["milestone-event-id"]).toBe(event.id);
    // Only what happened after it started: the deal's `created` was not forwarded.
    expect(got.map((g) => JSON.parse(g.body).type)).toEqual(["edited"]);
  });
});
