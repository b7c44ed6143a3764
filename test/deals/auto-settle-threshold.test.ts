import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as eventsRoute from "@/app/api/events/route";
import { getDb } from "@/db/client";
import { dealEvents } from "@/db/schema";
import { dealResponse } from "@/lib/deals/serialize";
import { dealDetailResponse } from "@/lib/settle/review";
import { AUTO_SETTLE_CONFIDENCE } from "@/lib/verify/confidence";
import { fundDeal } from "../helpers/fund-deal";
import { type CallResult, call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// A deal's auto-settle threshold (`autoSettleConfidence`): set on create (default: the one
// chosen on the eval), returned in the deal and in its events' snapshots, validated with a
// plain 400 (50–100 %), and edited by the same rules as the other terms the escrow does not
// hold: while unfunded or funded and untaken, never once a creator has taken the deal.

let brand: TestUser;
let creator: TestUser;

const body = (extra: Record<string, unknown> = {}) => ({
  title: "Threshold campaign",
  platform: "instagram",
  milestones: [{ title: "Post", amount: 20, requirements: { hashtags: ["ad"] } }],
  ...extra,
});

const create = (extra: Record<string, unknown> = {}) =>
  call(dealsRoute.POST, { body: body(extra), token: brand.token });
const patch = (dealId: string, b: unknown) =>
  call(dealRoute.PATCH, { method: "PATCH", params: { id: dealId }, body: b, token: brand.token });
const getDeal = async (dealId: string) => {
  const res = await call(dealRoute.GET, { params: { id: dealId }, token: brand.token });
  expect(res.status).toBe(200);
  dealDetailResponse.parse(res.body);
  return res.body.deal;
};

function expectIssue(res: CallResult, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  expect(res.body.error.details).toContainEqual(
    expect.objectContaining({ path: ["autoSettleConfidence"], message }),
  );
}

async function events(dealId: string, type: "created" | "edited") {
  const db = await getDb();
  return db
    .select()
    .from(dealEvents)
    .where(and(eq(dealEvents.dealId, dealId), eq(dealEvents.type, type)))
    .orderBy(asc(dealEvents.seq));
}

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

describe("a deal's auto-settle threshold", () => {
  it("defaults to the threshold chosen on the eval, and is returned in the deal and its event", async () => {
    const res = await create();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    dealResponse.parse(res.body);
    expect(res.body.deal.autoSettleConfidence).toBe(AUTO_SETTLE_CONFIDENCE);
    expect(AUTO_SETTLE_CONFIDENCE).toBe(0.9);
    const [created] = await events(res.body.deal.id, "created");
    expect(created?.object).toMatchObject({ autoSettleConfidence: 0.9, minScore: 0.5 });
  });

  it("is set on create, as a fraction like minScore", async () => {
    const res = await create({ autoSettleConfidence: 0.75 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await getDeal(res.body.deal.id)).autoSettleConfidence).toBe(0.75);
    const full = await create({ autoSettleConfidence: 1 });
    expect(full.body.deal.autoSettleConfidence).toBe(1);
    const lowest = await create({ autoSettleConfidence: 0.5 });
    expect(lowest.body.deal.autoSettleConfidence).toBe(0.5);
  });

  it("refuses a threshold outside 50–100 % or not a number, on create and on edit, changing nothing", async () => {
    const range = "must be between 50 % and 100 %";
    expectIssue(await create({ autoSettleConfidence: 0.49 }), range);
    expectIssue(await create({ autoSettleConfidence: 1.01 }), range);
    expectIssue(await create({ autoSettleConfidence: 90 }), range);
    expectIssue(
      await create({ autoSettleConfidence: "0.9" }),
      "must be a number between 0.5 and 1",
    );
    expectIssue(await create({ autoSettleConfidence: null }), "must be a number between 0.5 and 1");

    const dealId = (await create()).body.deal.id;
    expectIssue(await patch(dealId, { autoSettleConfidence: 0 }), range);
    expectIssue(await patch(dealId, { autoSettleConfidence: -1 }), range);
    expect((await getDeal(dealId)).autoSettleConfidence).toBe(0.9);
    expect(await events(dealId, "edited")).toHaveLength(0);
  });

  it("edits like the other terms: unfunded and funded-untaken, one edited event, the terms' version moves on", async () => {
    const dealId = (await create()).body.deal.id;
    const edited = await patch(dealId, { autoSettleConfidence: 0.6 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.deal).toMatchObject({ autoSettleConfidence: 0.6, termsVersion: 2 });
    const [first] = await events(dealId, "edited");
    expect(first?.data).toMatchObject({ fields: ["autoSettleConfidence"] });
    expect(first?.object).toMatchObject({ autoSettleConfidence: 0.6, termsVersion: 2 });
    expect(first?.previousAttributes).toMatchObject({ autoSettleConfidence: 0.9 });

    // The same value again changes nothing: no event.
    expect((await patch(dealId, { autoSettleConfidence: 0.6 })).status).toBe(200);
    expect(await events(dealId, "edited")).toHaveLength(1);

    // Funded, nobody has taken it: the escrow does not hold the threshold, so it may change.
    await fundDeal(brand, dealId);
    const funded = await patch(dealId, { autoSettleConfidence: 1 });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    expect(funded.body.deal).toMatchObject({ status: "open", autoSettleConfidence: 1 });

    // Events as a resource show it too.
    const listed = await call(eventsRoute.GET, {
      path: `/api/events?object=${dealId}&type=edited&limit=1`,
      token: brand.token,
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.events[0].data.object).toMatchObject({ autoSettleConfidence: 1 });
    expect(listed.body.events[0].data.previous_attributes).toMatchObject({
      autoSettleConfidence: 0.6,
    });

    // Taken: the creator agreed to these terms; nothing changes any more.
    const accepted = await call(acceptRoute.POST, { params: { id: dealId }, token: creator.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const late = await patch(dealId, { autoSettleConfidence: 0.5 });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("deal_not_editable");
    expect((await getDeal(dealId)).autoSettleConfidence).toBe(1);
  });
});
