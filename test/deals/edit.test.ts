import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as cancelRoute from "@/app/api/deals/[id]/cancel/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as dealsRoute from "@/app/api/deals/route";
import { dbDriver, getDb } from "@/db/client";
import {
  listDealMilestones,
  lockBrandDeal,
  replaceDealMilestones,
  updateDealFields,
} from "@/db/queries/deals";
import { type Deal, dealEvents, deals } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import { dealResponse } from "@/lib/deals/serialize";
import { escrowKey, readEscrowDeal, readEscrowMilestones } from "@/lib/escrow/chain";
import { toSeconds } from "@/lib/escrow/deals";
import { fundDeal, fundingTermsOf, linkFundingWallet, sendFunding } from "../helpers/fund-deal";
import { type CallResult, call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// PATCH /api/deals/:id on the real database and anvil: an unfunded deal changes in full, a
// funded one only where the escrow holds nothing (never its amounts, count or deadline), a
// taken or closed one not at all; only its brand; one `edited` event per change, none when
// nothing changed and none when the change fails; and a funding racing an edit never opens
// a deal whose terms differ from what the escrow holds.

let brand: TestUser;
let otherBrand: TestUser;
let creator: TestUser;
let otherCreator: TestUser;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const dealBody = () => ({
  title: "Spring campaign",
  description: "Two posts",
  platform: "instagram",
  minScore: 0.6,
  milestones: [
    {
      title: "Teaser",
      amount: 40,
      requirements: { hashtags: ["spring"], criteria: ["Shows the product"] },
      dueAt: inDays(5),
    },
    { title: "Main post", amount: 60, requirements: { mentions: ["acme"] } },
  ],
});

async function createDeal(): Promise<string> {
  const res = await call(dealsRoute.POST, { body: dealBody(), token: brand.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.deal.id;
}

const patch = (dealId: string, body: unknown, token = brand.token) =>
  call(dealRoute.PATCH, { method: "PATCH", params: { id: dealId }, body, token });

const getDeal = async (dealId: string) => {
  const res = await call(dealRoute.GET, { params: { id: dealId }, token: brand.token });
  expect(res.status).toBe(200);
  return res.body.deal;
};

async function editedEvents(dealId: string) {
  const db = await getDb();
  return db
    .select()
    .from(dealEvents)
    .where(and(eq(dealEvents.dealId, dealId), eq(dealEvents.type, "edited")))
    .orderBy(asc(dealEvents.seq));
}

async function dealRow(dealId: string): Promise<Deal> {
  const [row] = await (await getDb()).select().from(deals).where(eq(deals.id, dealId));
  if (!row) throw new Error("no deal");
  return row;
}

/** The deal's terms in the database equal what the escrow holds (deadline, amounts in order). */
async function expectEscrowMatches(dealId: string) {
  const db = await getDb();
  const row = await dealRow(dealId);
  const ms = await listDealMilestones(db, dealId);
  const key = escrowKey(row);
  const onChain = await readEscrowDeal(key);
  expect(onChain.exists).toBe(true);
  expect(onChain.deadline).toBe(toSeconds(row.deadlineAt));
  expect(onChain.milestoneCount).toBe(ms.length);
  const held = await readEscrowMilestones(key, onChain.milestoneCount);
  expect(held.map((m) => m.amount)).toEqual(ms.map((m) => m.amountUnits));
  expect(row.budgetUnits).toBe(onChain.funded);
}

function expectIssue(res: CallResult, path: string[], message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  expect(res.body.error.details).toContainEqual(expect.objectContaining({ path, message }));
}

beforeAll(async () => {
  brand = await makeUser("organization");
  // The escrow keys a deal by its funder: the app finds a funding nobody reported under the
  // wallet linked to the brand's account.
  await linkFundingWallet(brand);
  otherBrand = await makeUser("organization");
  creator = await makeUser("creator");
  otherCreator = await makeUser("creator");
});

describe("an unfunded deal", () => {
  it("changes in full: every field, the milestones' number, amounts and due dates", async () => {
    const dealId = await createDeal();
    const dueAt = inDays(10);
    const res = await patch(dealId, {
      title: "Summer campaign",
      description: "Three posts instead",
      platform: "tiktok",
      minScore: 0.75,
      reviewWindowDays: 3,
      creatorEmail: "Invited@Example.com",
      milestones: [
        { title: "Teaser v2", amount: 25.5, requirements: { hashtags: ["#summer"] }, dueAt },
        { title: "Main post", amount: 60, requirements: { mentions: ["acme"] } },
        { title: "Story", amount: 14.5, requirements: { criteria: ["Links to the shop"] } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    dealResponse.parse(res.body); // the documented response
    const deal = await getDeal(dealId);
    expect(deal).toMatchObject({
      title: "Summer campaign",
      description: "Three posts instead",
      platform: "tiktok",
      minScore: 0.75,
      inviteEmail: "invited@example.com",
      status: "unfunded",
      budget: 100,
    });
    expect(
      deal.milestones.map((m: { title: string; amount: number }) => [m.title, m.amount]),
    ).toEqual([
      ["Teaser v2", 25.5],
      ["Main post", 60],
      ["Story", 14.5],
    ]);
    expect(deal.milestones[0].requirements.hashtags).toEqual(["#summer"]);
    expect(new Date(deal.milestones[0].dueAt).getTime()).toBe(new Date(dueAt).getTime());
    expect((await dealRow(dealId)).reviewWindowSeconds).toBe(3 * 86_400);

    // One event, naming what changed.
    const events = await editedEvents(dealId);
    expect(events).toHaveLength(1);
    expect(events[0]?.actorId).toBe(brand.user.id);
    expect(events[0]?.data).toMatchObject({
      fields: [
        "title",
        "description",
        "platform",
        "minScore",
        "creatorEmail",
        "reviewWindowDays",
        "milestones",
      ],
    });

    // Funding follows the edited terms, and the deal opens with them.
    const terms = await fundingTermsOf(brand, dealId);
    expect(terms.amounts).toEqual(["25500000", "60000000", "14500000"]);
    await fundDeal(brand, dealId);
    expect((await getDeal(dealId)).status).toBe("open");
    await expectEscrowMatches(dealId);
  });

  it("drops milestones and keeps the ids of those that stay; the deadline moves past a later due date", async () => {
    const dealId = await createDeal();
    const before = await getDeal(dealId);
    const lateDue = inDays(60);
    const res = await patch(dealId, {
      milestones: [
        { title: "Only post", amount: 10, requirements: { hashtags: ["x"] }, dueAt: lateDue },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.deal.milestones).toHaveLength(1);
    expect(res.body.deal.milestones[0].id).toBe(before.milestones[0].id);
    expect(res.body.deal.budget).toBe(10);
    const row = await dealRow(dealId);
    expect(row.deadlineAt.getTime()).toBeGreaterThan(new Date(lateDue).getTime());
    expect((await editedEvents(dealId))[0]?.data).toMatchObject({
      fields: ["deadline", "milestones"],
      budget: { from: "100.000000", to: "10.000000" },
    });
  });

  it("an edit that changes nothing answers the deal and writes no event", async () => {
    const dealId = await createDeal();
    const before = await getDeal(dealId);
    const res = await patch(dealId, {
      title: "Spring campaign",
      minScore: 0.6,
      milestones: before.milestones.map(
        (m: { title: string; amount: string; requirements: unknown; dueAt: string | null }) => ({
          title: m.title,
          amount: Number(m.amount),
          requirements: m.requirements,
          dueAt: m.dueAt,
        }),
      ),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await editedEvents(dealId)).toHaveLength(0);
    const empty = await patch(dealId, {});
    expect(empty.status).toBe(200);
    expect(await editedEvents(dealId)).toHaveLength(0);
  });

  it("refuses invalid input with the create form's plain messages, changing nothing", async () => {
    const dealId = await createDeal();
    expectIssue(await patch(dealId, { title: "ab" }), ["title"], "must be at least 3 characters");
    expectIssue(
      await patch(dealId, { minScore: 1.5 }),
      ["minScore"],
      "must be between 0 % and 100 %",
    );
    expectIssue(
      await patch(dealId, { milestones: [] }),
      ["milestones"],
      "add at least one milestone",
    );
    expectIssue(
      await patch(dealId, { milestones: [{ title: "x", amount: 0 }] }),
      ["milestones", "0", "amount"],
      "must be more than 0",
    );
    expectIssue(
      await patch(dealId, { milestones: [{ title: "", amount: 5 }] }),
      ["milestones", "0", "title"],
      "is required",
    );
    expectIssue(
      await patch(dealId, { reviewWindowDays: 0 }),
      ["reviewWindowDays"],
      "must be at least 1 day",
    );
    expectIssue(
      await patch(dealId, { creatorEmail: "nope" }),
      ["creatorEmail"],
      "must be an e-mail address",
    );
    expectIssue(
      await patch(dealId, {
        milestones: [
          { title: "x", amount: 5, dueAt: new Date(Date.now() - 86_400_000).toISOString() },
        ],
      }),
      ["milestones", "0", "dueAt"],
      "must be in the future",
    );
    expectIssue(
      await patch(dealId, { deadline: new Date(Date.now() + 60_000).toISOString() }),
      ["deadline"],
      "must be at least an hour from now",
    );
    expect(await editedEvents(dealId)).toHaveLength(0);
    expect((await getDeal(dealId)).title).toBe("Spring campaign");
  });

  it("a funding nobody reported is found first: the deal opens and its money stays locked", async () => {
    const dealId = await createDeal();
    await sendFunding(brand, dealId); // on-chain, never reported
    expect((await dealRow(dealId)).status).toBe("unfunded");
    const refused = await patch(dealId, {
      milestones: [
        { title: "Teaser", amount: 50, requirements: { hashtags: ["spring"] } },
        { title: "Main post", amount: 60 },
      ],
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe("terms_locked");
    expect(refused.body.error.message).toContain("cancel this deal and create a new one");
    expect((await dealRow(dealId)).status).toBe("open");
    await expectEscrowMatches(dealId);
    // What the escrow does not hold may still change.
    const ok = await patch(dealId, { title: "Spring campaign, funded" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.deal.status).toBe("open");
  });

  it("an escrow holding other terms is refused (cancel from the wallet), nothing written", async () => {
    const dealId = await createDeal();
    await sendFunding(brand, dealId, { amounts: ["1000000", "2000000"] });
    const res = await patch(dealId, { title: "Changed" });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    expect((await dealRow(dealId)).title).toBe("Spring campaign");
    expect(await editedEvents(dealId)).toHaveLength(0);
  });
});

describe("a funded deal nobody has taken", () => {
  it("changes only what the escrow does not hold", async () => {
    const dealId = await createDeal();
    await fundDeal(brand, dealId);
    const before = await getDeal(dealId);
    const res = await patch(dealId, {
      title: "Spring campaign (updated)",
      description: "Two posts, same money",
      minScore: 0.7,
      reviewWindowDays: 5,
      milestones: [
        {
          title: "Teaser, renamed",
          amount: 40,
          requirements: { hashtags: ["spring", "ad"], criteria: ["Shows the product", "Smiles"] },
          dueAt: inDays(7),
        },
        { title: "Main post", amount: 60, requirements: { mentions: ["acme"] } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const deal = res.body.deal;
    expect(deal.status).toBe("open");
    expect(deal.title).toBe("Spring campaign (updated)");
    expect(deal.minScore).toBe(0.7);
    expect(deal.milestones[0].title).toBe("Teaser, renamed");
    expect(deal.milestones[0].requirements.hashtags).toEqual(["#spring", "#ad"]);
    expect(deal.milestones.map((m: { id: string }) => m.id)).toEqual(
      before.milestones.map((m: { id: string }) => m.id),
    );
    await expectEscrowMatches(dealId);
    expect(await editedEvents(dealId)).toHaveLength(1);
  });

  it("refuses a change of amount, of the number of milestones or of the deadline (409 terms_locked)", async () => {
    const dealId = await createDeal();
    await fundDeal(brand, dealId);
    const cases = [
      {
        title: "Sneaky",
        milestones: [
          { title: "Teaser", amount: 41, requirements: { hashtags: ["spring"] } },
          { title: "Main post", amount: 60 },
        ],
      },
      { milestones: [{ title: "Teaser", amount: 100, requirements: { hashtags: ["spring"] } }] },
      { deadline: inDays(90) },
    ];
    for (const body of cases) {
      const res = await patch(dealId, body);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe("terms_locked");
      expect(res.body.error.message).toMatch(/cancel this deal and create a new one/);
    }
    expect((await dealRow(dealId)).title).toBe("Spring campaign");
    expect(await editedEvents(dealId)).toHaveLength(0);
    await expectEscrowMatches(dealId);
  });

  it("a due date may not pass the deadline the escrow holds", async () => {
    const dealId = await createDeal();
    await fundDeal(brand, dealId);
    const res = await patch(dealId, {
      milestones: [
        { title: "Teaser", amount: 40, requirements: { hashtags: ["spring"] }, dueAt: inDays(365) },
        { title: "Main post", amount: 60 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toEqual(["milestones", "0", "dueAt"]);
    expect(res.body.error.details[0].message).toMatch(/^must not be after the deal's deadline/);
  });
});

describe("who may edit, and when", () => {
  it("a creator takes the version of the terms they reviewed: an edit since is 409 terms_changed", async () => {
    const dealId = await createDeal();
    await fundDeal(brand, dealId);
    const seen = await call(dealRoute.GET, { params: { id: dealId }, token: creator.token });
    expect(seen.body.deal.termsVersion).toBe(1);

    // The brand raises the bar while the creator reads the old terms.
    expect((await patch(dealId, { minScore: 0.9 })).status).toBe(200);
    expect((await patch(dealId, { minScore: 0.9 })).body.deal.termsVersion).toBe(2); // no-op: same
    const stale = await call(acceptRoute.POST, {
      params: { id: dealId },
      body: { termsVersion: 1 },
      token: creator.token,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("terms_changed");
    expect((await dealRow(dealId)).creatorId).toBeNull();
    expect((await dealRow(dealId)).status).toBe("open");

    const fresh = await call(acceptRoute.POST, {
      params: { id: dealId },
      body: { termsVersion: 2 },
      token: creator.token,
    });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.deal).toMatchObject({ status: "active", minScore: 0.9, termsVersion: 2 });
  });

  it("a taken, cancelled deal answers 409 deal_not_editable", async () => {
    const taken = await createDeal();
    await fundDeal(brand, taken);
    const accepted = await call(acceptRoute.POST, { params: { id: taken }, token: creator.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const res = await patch(taken, { title: "Too late" });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: "deal_not_editable",
      message: "A creator has taken this deal, so its terms can no longer change.",
    });

    const cancelled = await createDeal();
    const c = await call(cancelRoute.POST, {
      params: { id: cancelled },
      body: {},
      token: brand.token,
    });
    expect(c.status).toBe(200);
    const res2 = await patch(cancelled, { title: "Too late" });
    expect(res2.status).toBe(409);
    expect(res2.body.error.code).toBe("deal_not_editable");
  });

  it("only the brand: 404 for a deal one cannot see, 403 for one offered to others, 401 signed out", async () => {
    const unfunded = await createDeal();
    expect((await patch(unfunded, { title: "Mine now" }, otherBrand.token)).status).toBe(404);
    expect((await patch(unfunded, { title: "Mine now" }, otherCreator.token)).status).toBe(404);
    const open = await createDeal();
    await fundDeal(brand, open);
    const prospect = await patch(open, { title: "Mine now" }, otherCreator.token);
    expect(prospect.status).toBe(403);
    expect(prospect.body.error.code).toBe("forbidden");
    // An open deal is offered to every signed-in user: seen, so 403 (as cancel and funding).
    expect((await patch(open, { title: "Mine now" }, otherBrand.token)).body.error.code).toBe(
      "forbidden",
    );
    const anonymous = await call(dealRoute.PATCH, {
      method: "PATCH",
      params: { id: open },
      body: { title: "Mine now" },
    });
    expect(anonymous.status).toBe(401);
    expect((await dealRow(open)).title).toBe("Spring campaign");
    expect((await dealRow(unfunded)).title).toBe("Spring campaign");
  });

  it("an API key needs the write scope", async () => {
    const dealId = await createDeal();
    const db = await getDb();
    const read = await createApiKey(db, { userId: brand.user.id, name: "r", scopes: ["read"] });
    const write = await createApiKey(db, { userId: brand.user.id, name: "w", scopes: ["write"] });
    const path = `/api/deals/${dealId}`;
    const refused = await call(dealRoute.PATCH, {
      method: "PATCH",
      path,
      params: { id: dealId },
      body: { title: "By key" },
      token: read.key,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    const ok = await call(dealRoute.PATCH, {
      method: "PATCH",
      path,
      params: { id: dealId },
      body: { title: "By key" },
      token: write.key,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.deal.title).toBe("By key");
  });
});

describe("atomicity and races", () => {
  it("an edit that fails part-way writes nothing", async () => {
    const dealId = await createDeal();
    const db = await getDb();
    // The event insert fails (after the deal and its milestones were written): all of it rolls back.
    await db.execute(
      sql.raw(`create or replace function edit_test_refuse() returns trigger language plpgsql as $$
        begin
          if new.type = 'edited' and new.deal_id = '${dealId}' then
            raise exception 'refused by the test';
          end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw(
        "create trigger edit_test_refuse before insert on deal_events for each row execute function edit_test_refuse()",
      ),
    );
    try {
      const res = await patch(dealId, {
        title: "Half written?",
        milestones: [{ title: "One", amount: 5, requirements: { hashtags: ["x"] } }],
      });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe("internal");
    } finally {
      await db.execute(sql.raw("drop trigger edit_test_refuse on deal_events"));
      await db.execute(sql.raw("drop function edit_test_refuse()"));
    }
    const row = await dealRow(dealId);
    expect(row.title).toBe("Spring campaign");
    expect(row.budgetUnits).toBe(100_000_000n);
    const ms = await listDealMilestones(db, dealId);
    expect(ms.map((m) => [m.title, m.amountUnits])).toEqual([
      ["Teaser", 40_000_000n],
      ["Main post", 60_000_000n],
    ]);
    expect(await editedEvents(dealId)).toHaveLength(0);
  });

  it("an edit racing a take: one goes entirely first (edited before taken, or 409)", async () => {
    const dealId = await createDeal();
    await fundDeal(brand, dealId);
    const [edit, take] = await Promise.all([
      patch(dealId, { title: "Raced" }),
      call(acceptRoute.POST, { params: { id: dealId }, token: otherCreator.token }),
    ]);
    expect(take.status, JSON.stringify(take.body)).toBe(200);
    const db = await getDb();
    const events = await db
      .select()
      .from(dealEvents)
      .where(eq(dealEvents.dealId, dealId))
      .orderBy(asc(dealEvents.seq));
    const types = events.map((e) => e.type);
    if (edit.status === 200) {
      expect(types.indexOf("edited")).toBeGreaterThan(-1);
      expect(types.indexOf("edited")).toBeLessThan(types.indexOf("taken"));
      expect((await dealRow(dealId)).title).toBe("Raced");
    } else {
      expect(edit.status).toBe(409);
      expect(edit.body.error.code).toBe("deal_not_editable");
      expect(types).not.toContain("edited");
      expect((await dealRow(dealId)).title).toBe("Spring campaign");
    }
    await expectEscrowMatches(dealId);
  });

  it("an edit racing the report of a funding with the old terms never opens a deal the escrow disagrees with", async () => {
    const dealId = await createDeal();
    await sendFunding(brand, dealId);
    const [edit, report] = await Promise.all([
      patch(dealId, {
        milestones: [
          { title: "Teaser", amount: 1, requirements: { hashtags: ["spring"] } },
          { title: "Main post", amount: 60 },
        ],
      }),
      call(fundingRoute.POST, { params: { id: dealId }, body: {}, token: brand.token }),
    ]);
    const row = await dealRow(dealId);
    if (row.status === "open") await expectEscrowMatches(dealId);
    if (edit.status === 200) expect(row.status).toBe("unfunded");
    else expect(edit.body.error.code).toBe("terms_locked");
    expect([200, 409]).toContain(report.status);
  });

  it("a funding checked before an edit committed is checked again under the deal's lock", async () => {
    // PGlite runs one transaction at a time, so nothing can wait on a row lock there.
    if ((await dbDriver()) !== "postgres") return;
    const dealId = await createDeal();
    await sendFunding(brand, dealId); // the escrow holds the original terms
    const db = await getDb();
    let report: Promise<CallResult> | undefined;
    await db.transaction(async (tx) => {
      // What editDeal's transaction does once its escrow check has passed.
      const deal = await lockBrandDeal(tx, brand.user.id, dealId);
      if (!deal) throw new Error("no deal");
      const current = await listDealMilestones(tx, dealId);
      await replaceDealMilestones(
        tx,
        dealId,
        current,
        current.map((m, i) => (i === 0 ? { ...m, amountUnits: 1_000_000n } : m)),
      );
      await updateDealFields(tx, brand.user.id, dealId, { budgetUnits: 61_000_000n });
      // Meanwhile the funding is reported: it reads the old (committed) terms, which match
      // the escrow, and then waits for this transaction's row lock.
      report = call(fundingRoute.POST, { params: { id: dealId }, body: {}, token: brand.token });
      for (;;) {
        const waiting = await db.execute(
          sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%for no key update%' and datname = current_database()`,
        );
        if ((waiting as unknown as unknown[]).length > 0) break; // postgres-js: rows array
        await new Promise((r) => setImmediate(r));
      }
    });
    const res = await (report as Promise<CallResult>);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    expect(res.body.error.message).toContain("milestone 1's amount differs");
    expect((await dealRow(dealId)).status).toBe("unfunded");
  });
});
