import { type Address, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import * as depositRoute from "@/app/api/deals/[id]/funding/deposit/route";
import * as fundingRoute from "@/app/api/deals/[id]/funding/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as reputationRoute from "@/app/api/reputation/[wallet]/route";
import { loadDealSeed } from "@/app/deals/[id]/load-deal-seed";
import { getDb } from "@/db/client";
import { getDeposit } from "@/db/queries/deposits";
import { getDeal } from "@/lib/deals/deals";
import { dealBetween } from "../helpers/events";
import { call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import { makeUser, type TestUser } from "../helpers/users";
import { launchRequirements } from "../verify/fixtures";

// The deal page's streamed seed (app/deals/[id]/load-deal-seed.ts, issue 25 item 5): every
// part is a promise the page does not wait for; from the database alone it answers what the
// routes answer (funding terms, activity, messages), and where only the chain could answer
// (a deposit address to replace) it leaves the panel to fetch.

let brand: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  brand = await makeUser("organization", {
    walletAddress: privateKeyToAccount(generatePrivateKey()).address,
  });
  stranger = await makeUser("creator");
});

const seedFor = async (who: TestUser, dealId: string) => {
  const db = await getDb();
  return loadDealSeed(db, who.user, await getDeal(db, who.user, dealId));
};

const fundingOf = async (dealId: string) => {
  const res = await call(fundingRoute.GET, { token: brand.token, params: { id: dealId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.funding;
};

describe("the deal page's seed", () => {
  it("the brand of an unfunded deal: the funding terms as GET …/funding answers them, for the deal's terms version; the activity, the bonuses and the thread", async () => {
    const deal = await createDealFor(brand, [10, 15]);
    const seed = await seedFor(brand, deal.id);
    const funding = await seed.funding;
    expect(funding?.dealId).toBe(deal.id);
    expect(funding?.termsVersion).toBe(
      (await getDeal(await getDb(), brand.user, deal.id)).termsVersion,
    );
    // The seed gave the deposit address out (brand's wallet as the refund address), as the
    // route does: the route now answers the same block.
    expect(funding?.funding.deposit?.refundAddress).toBe(
      getAddress(brand.user.walletAddress as Address),
    );
    expect(JSON.parse(JSON.stringify(funding?.funding))).toEqual(await fundingOf(deal.id));
    expect((await seed.events)?.events.map((e) => e.type)).toEqual(["created"]);
    expect((await seed.messages)?.messages).toEqual([]);
    expect(await seed.evidence).toEqual({});
    expect(await seed.bonuses).toEqual({ bonuses: [], nextCursor: null });
    expect(seed.drafts).toBeNull(); // no creator yet: no drafts section
    expect(seed.relay).not.toBeNull();
  });

  it("after a terms edit the deposit address would change, which needs the old one's balance from the chain: the seed leaves the terms to the panel's fetch and moves nothing", async () => {
    const deal = await createDealFor(brand, [10]);
    const asked = await call(depositRoute.POST, {
      token: brand.token,
      params: { id: deal.id },
      body: {},
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const edited = await call(dealRoute.PATCH, {
      token: brand.token,
      params: { id: deal.id },
      body: { milestones: [{ title: "Post 1", amount: 12, requirements: launchRequirements }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const seed = await seedFor(brand, deal.id);
    expect(await seed.funding).toBeNull();
    expect((await getDeposit(await getDb(), deal.id))?.address).toBe(asked.body.deposit.address);
    // The route reads the chain (nothing there) and gives the address for the new terms.
    const fresh = await fundingOf(deal.id);
    expect(fresh.deposit).toMatchObject({ amount: "12.000000", status: "awaiting" });
    expect(fresh.deposit.address).not.toBe(asked.body.deposit.address);
  });

  it("a creator who may take an open deal gets none of the parties' parts; a party gets the creator's reputation as GET /api/reputation answers it", async () => {
    const open = await dealBetween(brand, null);
    const prospect = await seedFor(stranger, open.dealId);
    expect(prospect).toMatchObject({
      events: null,
      evidence: null,
      bonuses: null,
      drafts: null,
      messages: null,
      funding: null,
    });
    expect(prospect.relay).toBeNull();

    const creator = await makeUser("creator");
    const active = await dealBetween(brand, creator);
    const seed = await seedFor(creator, active.dealId);
    const wallet = (creator.user.walletAddress as string).toLowerCase();
    expect(Object.keys(seed.reputation)).toEqual([wallet]);
    const res = await call(reputationRoute.GET, {
      token: creator.token,
      params: { wallet: creator.user.walletAddress as string },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await seed.reputation[wallet]).toEqual(res.body);
    expect(seed.funding).toBeNull(); // the creator's: no funding terms
    expect(await seed.drafts).toEqual({ [active.milestoneId]: { drafts: [], nextCursor: null } });
  });
});
