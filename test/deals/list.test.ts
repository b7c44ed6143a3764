import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as dealsRoute from "@/app/api/deals/route";
import * as profileRoute from "@/app/api/profile/route";
import { type Db, getDb } from "@/db/client";
import { deals, milestones } from "@/db/schema";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";

// GET /api/deals as pages: keyset pagination (limit, cursor → nextCursor), filters and
// orders applied in the database, every row exactly once even while rows are inserted
// between pages; display names instead of e-mails.

let db: Db;
let brand: TestUser;
let creator: TestUser;
let otherBrand: TestUser;

type DealRow = {
  id: string;
  title: string;
  status: string;
  platform: string;
  budget: number;
  brand: { id: string; name: string } | null;
  milestones: Array<{ dealId: string }>;
};
type ListBody = { deals: DealRow[]; nextCursor: string | null; error?: { code: string } };

const list = (who: TestUser, query = "") =>
  call<ListBody>(dealsRoute.GET, { token: who.token, path: `/api/deals${query}` });

/** Every page of a list, following nextCursor; `between` runs before each next page. */
async function allPages(who: TestUser, query: string, between?: () => Promise<void>) {
  const seen: DealRow[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? "&" : "?";
    const res = await list(
      who,
      cursor ? `${query}${sep}cursor=${encodeURIComponent(cursor)}` : query,
    );
    expect(res.status).toBe(200);
    seen.push(...res.body.deals);
    cursor = res.body.nextCursor;
    pages++;
    if (cursor && between) await between();
  } while (cursor && pages < 100);
  return { seen, pages };
}

/** `n` deals of `brandId`, two milestones each; rows of one call share created_at. */
async function insertDeals(
  brandId: string,
  n: number,
  row: (i: number) => Partial<typeof deals.$inferInsert> = () => ({}),
) {
  const created = await db
    .insert(deals)
    .values(
      Array.from({ length: n }, (_, i) => ({
        brandId,
        title: `Deal ${i}`,
        budgetUnits: BigInt((i % 7) + 1) * 1_000_000n,
        status: "open" as const,
        fundedAt: new Date(),
        ...row(i),
      })),
    )
    .returning();
  await db.insert(milestones).values(
    created.flatMap((d) =>
      [0, 1].map((position) => ({
        dealId: d.id,
        position,
        title: `M${position}`,
        amountUnits: d.budgetUnits,
        requirements: { hashtags: [], mentions: [], links: [], criteria: [] },
      })),
    ),
  );
  return created;
}

beforeAll(async () => {
  db = await getDb();
  brand = await makeUser("organization");
  otherBrand = await makeUser("organization");
  creator = await makeUser("creator");
  // Three batches a few ms apart, each batch sharing one created_at (ties → id decides).
  await insertDeals(brand.user.id, 15, (i) => ({
    platform: i % 2 ? "tiktok" : "instagram",
    title: i === 3 ? "Save 50% now" : i === 4 ? "Save 50 dollars" : `Batch A ${i}`,
  }));
  await insertDeals(brand.user.id, 15, (i) => ({
    title: i === 0 ? "under_score" : `Batch B ${i}`,
    status: i < 5 ? "active" : "open",
    creatorId: i < 5 ? creator.user.id : null,
  }));
  await insertDeals(brand.user.id, 15, (i) => ({ title: `Batch C ${i}`, platform: "youtube" }));
  await insertDeals(otherBrand.user.id, 5, (i) => ({ title: `Other ${i}` }));
});

describe("GET /api/deals pages", () => {
  it("pages through a brand's deals newest first, each exactly once, with milestones", async () => {
    const first = await list(brand, "?limit=10");
    expect(first.body.deals).toHaveLength(10);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const { seen, pages } = await allPages(brand, "?limit=10");
    expect(pages).toBe(5);
    expect(seen).toHaveLength(45);
    expect(new Set(seen.map((d) => d.id)).size).toBe(45);
    for (const d of seen) {
      expect(d.milestones).toHaveLength(2);
      expect(d.milestones.every((m) => m.dealId === d.id)).toBe(true);
    }
    // The newest batch first.
    expect(seen.slice(0, 15).every((d) => d.title.startsWith("Batch C"))).toBe(true);
    // Default page size 20, and the last page says there is no more.
    const def = await list(brand);
    expect(def.body.deals).toHaveLength(20);
    const last = await allPages(brand, "?limit=100");
    expect(last.pages).toBe(1);
  });

  it("every row exactly once while new deals are inserted between pages", async () => {
    const before = await allPages(brand, "?limit=100");
    const ids = new Set(before.seen.map((d) => d.id));
    let inserted = 0;
    const { seen } = await allPages(brand, "?limit=7", async () => {
      await insertDeals(brand.user.id, 2, () => ({ title: `Inserted ${inserted++}` }));
    });
    const seenIds = seen.map((d) => d.id);
    expect(new Set(seenIds).size).toBe(seenIds.length); // no row twice
    for (const id of ids) expect(seenIds).toContain(id); // no row skipped
    expect(inserted).toBeGreaterThan(0);
  });

  it("filters by status, platform and search in the database, and orders oldest or by budget", async () => {
    const active = await allPages(brand, "?status=active&limit=2");
    expect(active.seen).toHaveLength(5);
    expect(active.seen.every((d) => d.status === "active")).toBe(true);

    const youtube = await allPages(brand, "?platform=youtube&limit=4");
    expect(youtube.seen).toHaveLength(15);
    expect(youtube.seen.every((d) => d.platform === "youtube")).toBe(true);

    // `%` and `_` are literal: "50%" finds one title, "_" only the one with an underscore.
    const percent = await list(brand, `?search=${encodeURIComponent("50%")}`);
    expect(percent.body.deals.map((d) => d.title)).toEqual(["Save 50% now"]);
    const underscore = await list(brand, "?search=_");
    expect(underscore.body.deals.map((d) => d.title)).toEqual(["under_score"]);
    const ci = await list(brand, "?search=SAVE%2050");
    expect(ci.body.deals.map((d) => d.title).sort()).toEqual(["Save 50 dollars", "Save 50% now"]);

    const newest = (await allPages(brand, "?limit=100")).seen.map((d) => d.id);
    const oldest = (await allPages(brand, "?sort=oldest&limit=6")).seen.map((d) => d.id);
    expect(oldest).toEqual([...newest].reverse());

    const byBudget = (await allPages(brand, "?sort=budget&limit=6")).seen;
    expect(byBudget).toHaveLength(newest.length);
    expect(new Set(byBudget.map((d) => d.id)).size).toBe(newest.length);
    const budgets = byBudget.map((d) => d.budget);
    expect(budgets).toEqual([...budgets].sort((a, b) => b - a));
  });

  it("the creator's lists: their own deals, and open deals of every brand filtered in the database", async () => {
    const mine = await allPages(creator, "?limit=3");
    expect(mine.seen).toHaveLength(5);
    expect(mine.seen.every((d) => d.status === "active")).toBe(true);

    // Every open deal of these brands exactly once (other test files may add their own).
    const open = await allPages(creator, "?open=1&limit=8");
    const openIds = open.seen.map((d) => d.id);
    expect(new Set(openIds).size).toBe(openIds.length);
    expect(open.seen.every((d) => d.status === "open")).toBe(true);
    const expected = await db
      .select({ id: deals.id })
      .from(deals)
      .where(
        sql`status = 'open' and creator_id is null and brand_id in (${brand.user.id}, ${otherBrand.user.id})`,
      );
    expect(expected.length).toBeGreaterThan(30);
    for (const { id } of expected) expect(openIds).toContain(id);
    const others = await allPages(creator, "?open=1&search=Other&limit=2");
    expect(others.seen.map((d) => d.title).sort()).toEqual(
      ["Other 0", "Other 1", "Other 2", "Other 3", "Other 4"].sort(),
    );
    const none = await list(creator, "?open=1&status=active");
    expect(none.body).toEqual({ deals: [], nextCursor: null });
  });

  it("refuses a bad page request with 400 invalid_request", async () => {
    for (const query of [
      "?limit=0",
      "?limit=101",
      "?limit=abc",
      "?cursor=garbage",
      "?sort=random",
      "?status=nope",
    ]) {
      const res = await list(brand, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error?.code).toBe("invalid_request");
    }
    // A cursor of another order, or tampered with, is not one of this list's.
    const page = await list(brand, "?limit=1");
    const cursor = page.body.nextCursor as string;
    expect((await list(brand, `?sort=oldest&cursor=${encodeURIComponent(cursor)}`)).status).toBe(
      400,
    );
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith("A") ? "BB" : "AA"}`;
    expect((await list(brand, `?cursor=${encodeURIComponent(tampered)}`)).status).toBe(400);
  });
});

describe("display names", () => {
  it("a deal shows its brand's display name, set through PATCH /api/profile", async () => {
    const before = await list(creator, "?open=1&search=Other&limit=1");
    expect(before.body.deals[0]?.brand).toMatchObject({
      id: otherBrand.user.id,
      name: otherBrand.user.email, // none set yet: the e-mail
    });
    const set = await call(profileRoute.PATCH, {
      token: otherBrand.token,
      body: { displayName: "  Acme Drinks  " },
    });
    expect(set.status).toBe(200);
    expect(set.body.profile).toMatchObject({ displayName: "Acme Drinks" });
    const after = await list(creator, "?open=1&search=Other&limit=1");
    expect(after.body.deals[0]?.brand).toMatchObject({
      id: otherBrand.user.id,
      name: "Acme Drinks",
    });
    expect(
      (await call(profileRoute.GET, { token: otherBrand.token })).body.profile.displayName,
    ).toBe("Acme Drinks");

    const tooLong = await call(profileRoute.PATCH, {
      token: otherBrand.token,
      body: { displayName: "x".repeat(81) },
    });
    expect(tooLong.status).toBe(400);
    const control = await call(profileRoute.PATCH, {
      token: otherBrand.token,
      body: { displayName: "Acme\u202eevil" },
    });
    expect(control.status).toBe(400);
    const cleared = await call(profileRoute.PATCH, {
      token: otherBrand.token,
      body: { displayName: null },
    });
    expect(cleared.body.profile.displayName).toBeNull();
    expect((await call(profileRoute.PATCH, { body: { displayName: "x" } })).status).toBe(401);
  });
});
