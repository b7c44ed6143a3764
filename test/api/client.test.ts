import { ApiError, createClient } from "@milestone/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as keysRoute from "@/app/api/keys/route";
import type { ApiKeyScope } from "@/db/schema";
import { dealPageResponse } from "@/lib/deals/deals";
import { resetEnvCache } from "@/lib/env";
import { notificationPageResponse } from "@/lib/notify/inbox";
import { dealDetailResponse } from "@/lib/settle/review";
import { settleResponse } from "@/lib/settle/settle";
import { webhookDeliveryPageResponse, webhookSecretResponse } from "@/lib/webhooks/endpoints";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import type { TestUser } from "../helpers/users";
import { parties } from "../settle/fixtures";
import { goodDeliverable, launchRules } from "../verify/fixtures";
import { inProcessFetch } from "./in-process-fetch";

// The typed client (lib/api/client.ts) against the real route handlers, database and
// anvil: its fetch dispatches to app/api/**/route.ts in this process. A third party's
// path: an API key made with a session, deals created, read and paged through, the whole
// deliver → verify → settle loop, and errors as ApiError with the contract's envelope.

const baseUrl = "http://localhost";

async function apiKeyOf(user: TestUser, scopes: ApiKeyScope[]) {
  const res = await call(keysRoute.POST, {
    path: "/api/keys",
    token: user.token,
    body: { name: "client test", scopes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.key as string;
}

const deal = (title: string, amount = 10) => ({
  title,
  platform: "instagram" as const,
  milestones: [{ title: "Launch Reel", amount, requirements: launchRules }],
});

async function thrown(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("the typed client", () => {
  it("creates, reads and pages through deals with an API key", async () => {
    const { brand } = await parties();
    const api = createClient({
      baseUrl,
      apiKey: await apiKeyOf(brand, ["read", "write"]),
      fetch: inProcessFetch,
    });

    const created: string[] = [];
    for (const title of ["Client deal one", "Client deal two", "Client deal three"])
      created.push((await api.createDeal(deal(title))).deal.id);

    const { deal: read } = await api.getDeal(created[0] as string);
    expect(dealDetailResponse.parse({ deal: read }).deal.id).toBe(created[0]);
    expect(read).toMatchObject({ title: "Client deal one", status: "unfunded", budget: 10 });
    expect(read.milestones[0]?.review.appeal).toBeNull();

    const first = await api.listDeals({ limit: 2 });
    dealPageResponse.parse(first);
    expect(first.deals.map((d) => d.id)).toEqual([created[2], created[1]]); // newest first
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await api.listDeals({ limit: 2, cursor: first.nextCursor as string });
    expect(second.deals.map((d) => d.id)).toEqual([created[0]]);
    expect(second.nextCursor).toBeNull();

    // Every deal exactly once, page after page, while another is created between pages.
    const seen: string[] = [];
    for await (const d of api.allDeals({ limit: 1, sort: "oldest" })) {
      seen.push(d.id);
      if (seen.length === 1)
        created.push((await api.createDeal(deal("Made while paging"))).deal.id);
    }
    expect(seen).toEqual(created);
  });

  it("throws ApiError with the error envelope: scope, role, not found, bad input", async () => {
    const { brand, creator } = await parties();
    const readOnly = createClient({
      baseUrl,
      apiKey: await apiKeyOf(brand, ["read"]),
      fetch: inProcessFetch,
    });
    const scope = await thrown(readOnly.createDeal(deal("Refused")));
    expect(scope).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(scope.message).toEqual(expect.any(String));

    const asCreator = createClient({ baseUrl, token: creator.token, fetch: inProcessFetch });
    expect(await thrown(asCreator.createDeal(deal("Not a brand")))).toMatchObject({
      status: 403,
      code: "wrong_role",
    });
    expect(await thrown(asCreator.getDeal(crypto.randomUUID()))).toMatchObject({
      status: 404,
      code: "not_found",
    });
    const invalid = await thrown(asCreator.listDeals({ limit: 500 }));
    expect(invalid).toMatchObject({ status: 400, code: "invalid_request" });
    expect(invalid.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: ["limit"] })]),
    );

    const forged = createClient({ baseUrl, token: "mk_not_a_real_key", fetch: inProcessFetch });
    expect(await thrown(forged.listDeals())).toMatchObject({ status: 401, code: "invalid_token" });
  });

  it("an answer that is not the envelope (a proxy's 502 page) is still an ApiError", async () => {
    const sent: Request[] = [];
    const api = createClient({
      baseUrl: `${baseUrl}/`,
      apiKey: "mk_x",
      fetch: async (input, init) => {
        sent.push(new Request(input, init));
        return new Response("<html>Bad gateway</html>", {
          status: 502,
          headers: { "retry-after": "7" },
        });
      },
    });
    const err = await thrown(
      api.settle({ milestoneId: crypto.randomUUID() }, { idempotencyKey: "k-1" }),
    );
    expect(err).toMatchObject({ status: 502, code: "unexpected_response", retryAfter: 7 });
    expect(err.message).toContain("Bad gateway");
    const [req] = sent;
    expect(req?.url).toBe(`${baseUrl}/api/settle`);
    expect(req?.headers.get("authorization")).toBe("Bearer mk_x");
    expect(req?.headers.get("idempotency-key")).toBe("k-1");
    expect(req?.headers.get("content-type")).toBe("application/json");
  });

  it("runs the whole loop: take → deliver → verify → settle (idempotent) → events", async () => {
    const { brand, creator } = await parties();
    const asBrand = createClient({
      baseUrl,
      apiKey: await apiKeyOf(brand, ["read", "write", "settle"]),
      fetch: inProcessFetch,
    });
    const asCreator = createClient({ baseUrl, token: creator.token, fetch: inProcessFetch });

    const { deal: d } = await asBrand.createDeal(deal("Client loop", 25));
    await fundDeal(brand, d.id);
    const open = await asCreator.listDeals({ open: true, limit: 100 });
    expect(open.deals.map((x) => x.id)).toContain(d.id);
    const { deal: taken } = await asCreator.acceptDeal(d.id);
    expect(taken.creator?.id).toBe(creator.user.id);
    const milestoneId = taken.milestones[0]?.id as string;

    const post = await publishOnSandbox(creator, goodDeliverable.text);
    const { milestone } = await asCreator.submitDeliverable(milestoneId, {
      ...goodDeliverable,
      url: post.url,
    });
    expect(milestone.status).toBe("submitted");
    const verdict = await asBrand.verify(milestoneId);
    expect(verdict.revision).toBe(1);

    const key = `client-${milestoneId}`;
    const paid = await asBrand.settle({ milestoneId }, { idempotencyKey: key });
    settleResponse.parse(paid);
    if (!("outcome" in paid) || paid.outcome !== "paid")
      throw new Error(`expected paid, got ${JSON.stringify(paid)}`);
    expect(paid.settlement.status).toBe("confirmed");
    const again = await asBrand.settle({ milestoneId }, { idempotencyKey: key });
    expect(again).toEqual(paid);

    const { milestone: read } = await asCreator.getMilestone(milestoneId);
    expect(read.settlement?.id).toBe(paid.settlement.id);
    const { events, nextCursor } = await asCreator.listDealEvents(d.id, { limit: 100 });
    expect(nextCursor).toBeNull();
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["created", "funded", "taken", "submitted", "paid"]),
    );
  });
});

describe("the typed client: inbox, webhooks, evidence", () => {
  beforeAll(() => {
    process.env.FETCH_ALLOWED_HOSTS = "127.0.0.1:9"; // a registered URL; nothing is sent here
    resetEnvCache();
  });
  afterAll(() => {
    delete process.env.FETCH_ALLOWED_HOSTS;
    resetEnvCache();
  });

  it("an integration's key reads the inbox, manages a webhook and reads the evidence", async () => {
    const { brand, creator } = await parties();
    const api = createClient({
      baseUrl,
      apiKey: await apiKeyOf(brand, ["read", "write", "webhooks"]),
      fetch: inProcessFetch,
    });
    expect((await api.me()).user.id).toBe(brand.user.id);

    const hook = await api.createWebhook({ url: "http://127.0.0.1:9/hook", eventTypes: ["taken"] });
    expect(webhookSecretResponse.parse(hook)).toEqual(hook);
    const { deal: created } = await api.createDeal(deal("Client inbox deal"));
    await fundDeal(brand, created.id);
    const creatorApi = createClient({
      baseUrl,
      apiKey: await apiKeyOf(creator, ["read", "write"]),
      fetch: inProcessFetch,
    });
    await creatorApi.acceptDeal(created.id);

    const inbox = await api.listNotifications({ unread: true, limit: 100 });
    expect(notificationPageResponse.parse(inbox)).toEqual(inbox);
    expect(inbox.notifications.map((n) => n.event.type)).toContain("taken");
    expect((await api.unreadCount()).unreadCount).toBe(inbox.unreadCount);
    expect((await api.markRead({ all: true })).unreadCount).toBe(0);

    const log = await api.listDeliveries(hook.endpoint.id);
    expect(webhookDeliveryPageResponse.parse(log)).toEqual(log);
    expect(log.deliveries.map((d) => d.eventType)).toEqual(["taken"]);
    const resent = await api.resendDelivery(hook.endpoint.id, log.deliveries[0]?.id as string);
    expect(resent.delivery.status).toBe("pending");
    const off = await api.updateWebhook(hook.endpoint.id, { enabled: false });
    expect(off.endpoint.enabled).toBe(false);
    expect((await api.listWebhooks()).endpoints.map((e) => e.id)).toEqual([hook.endpoint.id]);
    const rotated = await api.rotateWebhookSecret(hook.endpoint.id);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(await api.deleteWebhook(hook.endpoint.id)).toEqual({ deleted: true });
    expect((await thrown(api.getWebhook(hook.endpoint.id))).code).toBe("not_found");

    const milestoneId = created.milestones[0]?.id as string;
    expect((await creatorApi.getEvidence(milestoneId)).evidence).toEqual([]);
    const terms = await api.getFundingTerms(created.id);
    expect(terms.funding.status).toBe("active");
    expect((await api.getProfile()).profile.id).toBe(brand.user.id);
  });
});
