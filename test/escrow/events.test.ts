import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as eventsRoute from "@/app/api/deals/[id]/events/route";
import * as dealsRoute from "@/app/api/deals/route";
import { getDb } from "@/db/client";
import { dealEvents, milestones } from "@/db/schema";
import { settleMilestone } from "@/lib/settle/settle";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import { answering, approve, launchRules, reject, submit } from "../verify/fixtures";

// The activity log: one event per state change, in the change's own transaction.

let brand: TestUser;
let creator: TestUser;

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

async function newDeal(n = 1) {
  const res = await call(dealsRoute.POST, {
    token: brand.token,
    body: {
      title: "Logged campaign",
      milestones: Array.from({ length: n }, (_, i) => ({
        title: `Post ${i + 1}`,
        amount: 10,
        requirements: launchRules,
      })),
    },
  });
  return res.body.deal as { id: string; milestones: Array<{ id: string }> };
}

async function allEvents(token: string, dealId: string, limit = 100) {
  const types: string[] = [];
  let cursor: string | null = null;
  do {
    const qs: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await call(eventsRoute.GET, {
      token,
      params: { id: dealId },
      path: `/api/deals/${dealId}/events${qs}`,
    });
    expect(res.status).toBe(200);
    types.push(...res.body.events.map((e: { type: string }) => e.type));
    cursor = res.body.nextCursor;
  } while (cursor);
  return types;
}

describe("the activity log", () => {
  it("records every state change of a deal's life exactly once, in order", async () => {
    const deal = await newDeal(1);
    const milestoneId = deal.milestones[0]?.id as string;
    await fundDeal(brand, deal.id);
    await call(acceptRoute.POST, { token: creator.token, params: { id: deal.id } });
    await submit(creator, milestoneId);
    const rejected = await settleMilestone(
      await getDb(),
      brand.user,
      { milestoneId, via: "direct", minScore: 0.95 },
      { verifier: { model: answering(approve) } }, // 0.92 < 0.95
    );
    expect(rejected.outcome).toBe("rejected");
    await submit(creator, milestoneId);
    const paid = await settleMilestone(
      await getDb(),
      brand.user,
      { milestoneId, via: "direct" },
      { verifier: { model: answering(approve) } },
    );
    expect(paid.outcome).toBe("paid");
    // Repeats change nothing, so they log nothing.
    await settleMilestone(await getDb(), brand.user, { milestoneId, via: "direct" }).catch(
      () => {},
    );

    const expected = [
      "created",
      "funded",
      "taken",
      "submitted",
      "verified",
      "rejected",
      "submitted",
      "verified",
      "approved",
      "paid",
      "completed",
    ];
    expect(await allEvents(brand.token, deal.id)).toEqual(expected);
    // Pages of 2 return every event exactly once, in the same order.
    expect(await allEvents(creator.token, deal.id, 2)).toEqual(expected);
  });

  it("a change that fails writes no event", async () => {
    const deal = await newDeal(1);
    const milestoneId = deal.milestones[0]?.id as string;
    await fundDeal(brand, deal.id);
    await call(acceptRoute.POST, { token: creator.token, params: { id: deal.id } });
    await submit(creator, milestoneId);
    const db = await getDb();
    const count = async () =>
      (await db.select().from(dealEvents).where(eq(dealEvents.dealId, deal.id))).length;
    const before = await count();
    // A second submission while one awaits review is refused: no event.
    await expect(submit(creator, milestoneId)).rejects.toThrow(/invalid_state/);
    // A cancel of a taken deal is refused: no event.
    const cancel = await call(cancelRoute.POST, { token: brand.token, params: { id: deal.id } });
    expect(cancel.status).toBe(409);
    expect(await count()).toBe(before);
    // The rejection the test helper forces goes around the domain (no event), as a contrast.
    await reject(milestoneId);
    const [m] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    expect(m?.status).toBe("rejected");
    expect(await count()).toBe(before);
  });

  it("is for the deal's parties only, and refuses a tampered or foreign cursor", async () => {
    const deal = await newDeal(1);
    const outsider = await makeUser("creator");
    const res = await call(eventsRoute.GET, { token: outsider.token, params: { id: deal.id } });
    expect(res.status).toBe(404);

    await fundDeal(brand, deal.id);
    const first = await call(eventsRoute.GET, {
      token: brand.token,
      params: { id: deal.id },
      path: `/api/deals/${deal.id}/events?limit=1`,
    });
    expect(first.body.events).toHaveLength(1);
    const cursor = first.body.nextCursor as string;
    expect(cursor).toBeTruthy();
    const tampered = `${cursor.slice(0, -2)}xx`;
    for (const bad of [tampered, "nonsense", cursor.replace(".", "")]) {
      const r = await call(eventsRoute.GET, {
        token: brand.token,
        params: { id: deal.id },
        path: `/api/deals/${deal.id}/events?cursor=${encodeURIComponent(bad)}`,
      });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_request");
    }
    // Another deal's cursor is not this deal's.
    const other = await newDeal(1);
    const foreign = await call(eventsRoute.GET, {
      token: brand.token,
      params: { id: other.id },
      path: `/api/deals/${other.id}/events?cursor=${encodeURIComponent(cursor)}`,
    });
    expect(foreign.status).toBe(400);
    const tooMany = await call(eventsRoute.GET, {
      token: brand.token,
      params: { id: deal.id },
      path: `/api/deals/${deal.id}/events?limit=101`,
    });
    expect(tooMany.status).toBe(400);
  });
});
