import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as ensureRoute from "@/app/api/demo/ensure-deals/route";
import * as deliverableRoute from "@/app/api/milestones/[id]/deliverable/route";
import * as milestoneRoute from "@/app/api/milestones/[id]/route";
import { getDb } from "@/db/client";
import { deals, deliverables, milestones } from "@/db/schema";
import type { MilestoneJson } from "@/lib/deals/serialize";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

let brand: TestUser;
let creator: TestUser;

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

describe("creating and reading deals", () => {
  it("stores amounts exactly and makes the budget the sum of the milestones", async () => {
    const res = await call(dealsRoute.POST, {
      token: brand.token,
      body: {
        title: "Precise amounts",
        milestones: [
          { title: "A", amount: 0.1, requirements: { hashtags: ["#Launch"], mentions: ["brand"] } },
          { title: "B", amount: 0.2, dueAt: "2030-01-01T00:00:00Z" },
          { title: "C", amount: 1234.567891 },
        ],
      },
    });
    expect(res.status).toBe(201);
    const deal = res.body.deal;
    expect(deal.budget).toBe(1234.867891);
    expect(deal.status).toBe("unfunded"); // until the escrow holds the budget
    expect(deal.escrow).toMatchObject({
      funded: false,
      budget: "1234.867891",
      locked: "0.000000",
      released: "0.000000",
      refunded: "0.000000",
    });
    expect(deal.minScore).toBe(0.5);
    expect(deal.paid).toBe("0.000000");
    expect(deal.milestones.map((m: { amount: number }) => m.amount)).toEqual([
      0.1, 0.2, 1234.567891,
    ]);
    expect(deal.milestones[0].requirements).toEqual({
      hashtags: ["#Launch"],
      mentions: ["@brand"],
      links: [],
      criteria: [],
    });
    expect(deal.milestones[1].dueAt).toBe("2030-01-01T00:00:00.000Z");
    const db = await getDb();
    const [row] = await db.select().from(deals).where(eq(deals.id, deal.id));
    expect(row?.budgetUnits).toBe(1_234_867_891n);
  });
});

describe("accepting deals", () => {
  it("lets exactly one of two racing creators take a deal", async () => {
    const created = await call(dealsRoute.POST, {
      token: brand.token,
      body: { title: "Race me", milestones: [{ title: "Only", amount: 10 }] },
    });
    const id = created.body.deal.id;
    await fundDeal(brand, id);
    const rivals = await Promise.all([makeUser("creator"), makeUser("creator")]);
    const results = await Promise.all(
      rivals.map((r) => call(acceptRoute.POST, { params: { id }, token: r.token })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409);
    expect(loser?.body.error.code).toBe("invalid_state");
    const winner = results.find((r) => r.status === 200);
    const db = await getDb();
    const [row] = await db.select().from(deals).where(eq(deals.id, id));
    expect(row?.creatorId).toBe(winner?.body.deal.creatorId);
    expect(row?.status).toBe("active");
  });

  it("lists open deals for creators, without the ones already taken", async () => {
    const created = await call(dealsRoute.POST, {
      token: brand.token,
      body: { title: "Browse me", milestones: [{ title: "Only", amount: 10 }] },
    });
    const id = created.body.deal.id;
    await fundDeal(brand, id);
    const open = async () =>
      (
        await call(dealsRoute.GET, { path: "/api/deals?open=1", token: creator.token })
      ).body.deals.map((d: { id: string }) => d.id);
    expect(await open()).toContain(id);
    await call(acceptRoute.POST, { params: { id }, token: creator.token });
    expect(await open()).not.toContain(id);
    const mine = await call(dealsRoute.GET, { path: "/api/deals", token: creator.token });
    expect(mine.body.deals.map((d: { id: string }) => d.id)).toContain(id);
  });
});

describe("deliverables", () => {
  async function activeDeal() {
    const created = await call(dealsRoute.POST, {
      token: brand.token,
      body: { title: "Deliver me", milestones: [{ title: "Post", amount: 25 }] },
    });
    const deal = created.body.deal;
    await fundDeal(brand, deal.id);
    await call(acceptRoute.POST, { params: { id: deal.id }, token: creator.token });
    return deal.milestones[0].id as string;
  }

  it("records each submission as a new revision, shown to both parties", async () => {
    const milestoneId = await activeDeal();
    const res = await call(deliverableRoute.POST, {
      params: { id: milestoneId },
      token: creator.token,
      body: { url: "https://tiktok.com/@me/video/1", text: "Loving it #ad", note: "first cut" },
    });
    expect(res.status).toBe(201);
    expect(res.body.milestone.status).toBe("submitted");
    expect(res.body.milestone.deliverable).toMatchObject({
      url: "https://tiktok.com/@me/video/1",
      text: "Loving it #ad",
      note: "first cut",
      revision: 1,
    });
    const seen = await call(milestoneRoute.GET, {
      params: { id: milestoneId },
      token: brand.token,
    });
    expect(seen.status).toBe(200);
    expect(seen.body.milestone.deliverable.revision).toBe(1);
    expect(seen.body.milestone.history.deliverables).toHaveLength(1);
    expect(seen.body.milestone.verdict).toBeNull();
    expect(seen.body.milestone.settlement).toBeNull();
  });

  it("refuses a second submission while one awaits review, and allows one after a rejection", async () => {
    const milestoneId = await activeDeal();
    const submit = () =>
      call(deliverableRoute.POST, {
        params: { id: milestoneId },
        token: creator.token,
        body: { url: "https://x.com/a/1" },
      });
    expect((await submit()).status).toBe(201);
    const again = await submit();
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");

    const db = await getDb();
    await db.update(milestones).set({ status: "rejected" }).where(eq(milestones.id, milestoneId));
    const resubmitted = await submit();
    expect(resubmitted.status).toBe(201);
    expect(resubmitted.body.milestone.deliverable.revision).toBe(2);
    expect(
      resubmitted.body.milestone.history.deliverables.map((d: { revision: number }) => d.revision),
    ).toEqual([1, 2]);
  });

  it("gives concurrent submissions distinct revisions and accepts only one", async () => {
    const milestoneId = await activeDeal();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(deliverableRoute.POST, {
          params: { id: milestoneId },
          token: creator.token,
          body: { url: `https://x.com/a/${i}` },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    const db = await getDb();
    const rows = await db
      .select()
      .from(deliverables)
      .where(eq(deliverables.milestoneId, milestoneId));
    expect(rows).toHaveLength(1);
  });
});

describe("starter deals", () => {
  it("seeds exactly three deals, even for ten concurrent calls", async () => {
    const fresh = await makeUser("organization");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(ensureRoute.POST, { token: fresh.token })),
    );
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(results.reduce((n, r) => n + r.body.created, 0)).toBe(3);
    for (const r of results) expect(r.body.deals).toHaveLength(3);

    const list = await call(dealsRoute.GET, { path: "/api/deals", token: fresh.token });
    expect(list.body.deals).toHaveLength(3);
    const byTitle = Object.fromEntries(list.body.deals.map((d: any) => [d.title, d]));
    expect(byTitle["Instagram Reel — Product Launch"].budget).toBe(200);
    expect(byTitle["Instagram Reel — Product Launch"].milestones.map((m: any) => m.amount)).toEqual(
      [80, 120],
    );
    expect(byTitle["TikTok Clip — Brand Shoutout"].budget).toBe(100);
    expect(byTitle["X Thread — Feature Highlight"].budget).toBe(100);
    for (const d of list.body.deals) {
      expect(d.status).toBe("unfunded"); // the brand funds them from its wallet
      expect(d.escrow.funded).toBe(false);
      expect(d.creatorId).toBeNull();
      for (const m of d.milestones) expect(m.requirements.hashtags.length).toBeGreaterThan(0);
    }
    // Some milestones are rules only (they settle on their own), the others have criteria
    // that need judgement (without an AI model, the brand decides).
    const ms = list.body.deals.flatMap((d: { milestones: MilestoneJson[] }) => d.milestones);
    expect(ms.some((m: MilestoneJson) => m.requirements.criteria.length === 0)).toBe(true);
    expect(ms.some((m: MilestoneJson) => m.requirements.criteria.length > 0)).toBe(true);
    const again = await call(ensureRoute.POST, { token: fresh.token });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(0);
  });

  it("lets a creator find and open a starter deal", async () => {
    const owner = await makeUser("organization");
    const seeded = await call(ensureRoute.POST, { token: owner.token });
    const id = seeded.body.deals[0].id;
    // Invisible to creators until funded.
    expect((await call(dealRoute.GET, { params: { id }, token: creator.token })).status).toBe(404);
    await fundDeal(owner, id);
    const seen = await call(dealRoute.GET, { params: { id }, token: creator.token });
    expect(seen.status).toBe(200);
    expect(seen.body.deal.title).toBe("Instagram Reel — Product Launch");
  });
});
