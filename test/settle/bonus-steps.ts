import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import * as releaseRoute from "@/app/api/deals/[id]/bonuses/[bonusId]/release/route";
import * as bonusesRoute from "@/app/api/deals/[id]/bonuses/route";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { dealEvents, settlements } from "@/db/schema";
import { call } from "../helpers/http";
import type { TestUser } from "../helpers/users";
import { goodDeliverable, submittedMilestone } from "../verify/fixtures";
import { parties } from "./fixtures";

// Steps of the bonus tests (test/settle/bonus*.test.ts): a deal with a paid milestone, a
// bonus on it, its release, and what the database says about them.

export const FIVE_USDC = 5_000_000n;

/** A deal with its milestone paid (46 USDC to the creator's wallet). */
export async function paidDeal() {
  const { brand, creator, wallet } = await parties();
  const { dealId, milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
  const settled = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  expect(settled.body.outcome).toBe("paid");
  return { brand, creator, wallet, dealId, milestoneId };
}

export const createBonus = (
  who: TestUser,
  dealId: string,
  body: unknown,
  headers?: Record<string, string>,
) => call(bonusesRoute.POST, { token: who.token, params: { id: dealId }, body, headers });

export const release = (who: TestUser, dealId: string, bonusId: string) =>
  call(releaseRoute.POST, { method: "POST", token: who.token, params: { id: dealId, bonusId } });

export async function newBonus(
  brand: TestUser,
  dealId: string,
  amount = FIVE_USDC,
  message = "Thanks!",
) {
  const res = await createBonus(brand, dealId, { amount: amount.toString(), message });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.bonus as { id: string; status: string; funding: string; recordHash: string };
}

export async function bonusSettlements(bonusId: string) {
  const db = await getDb();
  return db.select().from(settlements).where(eq(settlements.dealId, bonusId));
}

export async function eventsOfType(dealId: string, type: "bonus.paid" | "bonus.funded") {
  const db = await getDb();
  return db
    .select()
    .from(dealEvents)
    .where(and(eq(dealEvents.dealId, dealId), eq(dealEvents.type, type)));
}
