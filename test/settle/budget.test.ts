import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { deals, milestones } from "@/db/schema";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import type { TestUser } from "../helpers/users";
import { launchRules, submit } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// The budget guard: a settlement is claimed only while the deal's committed payouts plus
// this one stay within its budget (checked under the deal's row lock). A deal's budget is
// the sum of its milestones, so the guard cannot trip on its own: here the budget is
// lowered in the database after the first milestone is paid, as an operator (or a bug)
// might, and the second settle must refuse before any money moves.

/** An active deal of two milestones (30 + 20 USDC), both with a deliverable submitted. */
async function twoMilestoneDeal(brand: TestUser, creator: TestUser) {
  const created = await call(dealsRoute.POST, {
    token: brand.token,
    body: {
      title: "Two posts",
      platform: "instagram",
      milestones: [
        { title: "First post", amount: 30, requirements: launchRules },
        { title: "Second post", amount: 20, requirements: launchRules },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const dealId: string = created.body.deal.id;
  const [first, second] = created.body.deal.milestones.map((m: { id: string }) => m.id);
  await fundDeal(brand, dealId);
  const accepted = await call(acceptRoute.POST, { params: { id: dealId }, token: creator.token });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  await submit(creator, first);
  await submit(creator, second);
  return { dealId, first: first as string, second: second as string };
}

describe("the deal's budget", () => {
  it("a settle that would take the deal over its budget is refused; nothing more is paid", async () => {
    const { brand, creator, wallet } = await parties();
    const { dealId, first, second } = await twoMilestoneDeal(brand, creator);
    const settle = (milestoneId: string) =>
      call(settleRoute.POST, { token: brand.token, body: { milestoneId } });

    const paid = await settle(first);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.outcome).toBe("paid");
    const [firstSettlement] = await settlementRows(first);
    const firstUnits = firstSettlement?.amountUnits ?? 0n;
    expect(firstUnits).toBeGreaterThan(0n);
    expect(await usdcBalance(wallet)).toBe(firstUnits);

    // Leave room for less than the second payout: what is already paid, plus one unit.
    const db = await getDb();
    await db
      .update(deals)
      .set({ budgetUnits: firstUnits + 1n })
      .where(eq(deals.id, dealId));

    const refused = await settle(second);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe("budget_exceeded");

    // No second payment, no settlement row, and the milestone is as it was (settleable
    // again if the budget is raised).
    expect(await settlementRows(second)).toHaveLength(0);
    const [m] = await db.select().from(milestones).where(eq(milestones.id, second));
    expect(m?.status).toBe("submitted");
    const transfers = await transfersTo(wallet);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.args.value).toBe(firstUnits);
    expect(await usdcBalance(wallet)).toBe(firstUnits);

    // Asking again changes nothing.
    const again = await settle(second);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("budget_exceeded");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
