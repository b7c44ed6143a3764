import { and, eq, sql } from "drizzle-orm";
import { keccak256, toBytes } from "viem";
import { describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealRoute from "@/app/api/deals/[id]/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as appealRoute from "@/app/api/milestones/[id]/appeal/route";
import * as decisionRoute from "@/app/api/milestones/[id]/decision/route";
import * as refundRoute from "@/app/api/milestones/[id]/refund/route";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { dealEvents, decisions, deliverables, milestones } from "@/db/schema";
import { settleMilestone } from "@/lib/settle/settle";
import { checkTimers } from "@/lib/settle/timers";
import { canonicalJson } from "@/lib/verify/record";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import type { TestUser } from "../helpers/users";
import { answering, goodDeliverable, submit, submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// People in the loop on the real database and anvil: appeals, brand decisions (which pay
// through the same claim and escrow release as a settle), the review window after which
// the creator may settle, and overdue milestones the brand takes back.

// One rule-checked hashtag and no judgement-only criterion: the verdict is certain, so it
// settles on its own (a criterion would send it to the brand: lib/verify/confidence.ts).
const adOnly = { hashtags: ["#ad"], mentions: [], links: [], criteria: [] };
const rejecting = () =>
  answering({ approved: false, score: 0.3, reasoning: "Off brief.", missing: ["the product"] });

async function settleAs(user: TestUser, milestoneId: string, model = rejecting()) {
  return settleMilestone(
    await getDb(),
    user.user,
    { milestoneId, via: "direct" },
    { verifier: { model, retryDelayMs: 1, timeoutMs: 2_000 } },
  );
}

async function rejectedMilestone() {
  const p = await parties();
  const ids = await submittedMilestone(p.brand, p.creator, goodDeliverable, adOnly);
  const result = await settleAs(p.brand, ids.milestoneId);
  expect(result.outcome).toBe("rejected");
  return { ...p, ...ids };
}

const decide = (brand: TestUser, milestoneId: string, body: Record<string, unknown>) =>
  call(decisionRoute.POST, { params: { id: milestoneId }, token: brand.token, body });
const appeal = (
  user: TestUser,
  milestoneId: string,
  reason = "The product is on screen at 0:02.",
) => call(appealRoute.POST, { params: { id: milestoneId }, token: user.token, body: { reason } });

async function eventTypes(milestoneId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ type: dealEvents.type })
    .from(dealEvents)
    .where(eq(dealEvents.milestoneId, milestoneId))
    .orderBy(dealEvents.seq);
  return rows.map((r) => r.type);
}

/** Moves the current submission's time back, as if the brand had been silent that long. */
async function backdateSubmission(milestoneId: string, seconds: number) {
  const db = await getDb();
  await db
    .update(deliverables)
    .set({ submittedAt: sql`${deliverables.submittedAt} - make_interval(secs => ${seconds})` })
    .where(eq(deliverables.milestoneId, milestoneId));
}

describe("appeal → brand decision", () => {
  it("pays exactly amount × the brand's score once, with the decision record's hash on-chain", async () => {
    const { brand, creator, wallet, milestoneId, dealId } = await rejectedMilestone();
    const appealed = await appeal(creator, milestoneId);
    expect(appealed.status).toBe(201);
    expect(appealed.body.appeal).toMatchObject({ revision: 1, status: "open" });

    const decided = await decide(brand, milestoneId, {
      approve: true,
      score: 0.8,
      reason: "The product is visible; the model missed it.",
    });
    expect(decided.status).toBe(200);
    expect(decided.body.settlement).toMatchObject({ status: "confirmed", amount: "40.000000" });
    expect(decided.body.settlement.refund).toBe("10.000000");
    expect(decided.body.milestone.status).toBe("paid");
    expect(decided.body.milestone.review.decision).toMatchObject({
      approved: true,
      score: 0.8,
      reason: "The product is visible; the model missed it.",
      decidedBy: { id: brand.user.id },
    });
    expect(decided.body.milestone.review.appeal.status).toBe("decided");
    expect(await usdcBalance(wallet)).toBe(40_000_000n);
    expect(await transfersTo(wallet)).toHaveLength(1);

    // The release carried the decision record's hash, and the record says who and why.
    const db = await getDb();
    const [row] = await db.select().from(decisions).where(eq(decisions.milestoneId, milestoneId));
    const record = JSON.parse(row?.record ?? "{}");
    expect(record).toMatchObject({
      source: "brand_decision",
      decidedBy: brand.user.id,
      scoreBps: 8000,
      appealId: appealed.body.appeal.id,
    });
    expect(keccak256(toBytes(canonicalJson(record)))).toBe(row?.recordHash);
    expect(decided.body.settlement.verdictHash).toBe(row?.recordHash);

    expect(await eventTypes(milestoneId)).toEqual([
      "submitted",
      "verified",
      "rejected",
      "appealed",
      "decided",
      "approved",
      "paid",
    ]);
    const deal = await call(dealRoute.GET, { params: { id: dealId }, token: creator.token });
    expect(deal.body.deal.status).toBe("completed");

    // Done is done: a second decision, a settle, an appeal all refuse without paying.
    expect(
      (await decide(brand, milestoneId, { approve: true, score: 1, reason: "More!" })).body.error
        .code,
    ).toBe("already_settled");
    expect((await appeal(creator, milestoneId)).status).toBe(409);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it("opens one appeal per revision; only the creator, only on a rejection", async () => {
    const { brand, creator, milestoneId } = await rejectedMilestone();
    expect((await appeal(brand, milestoneId)).body.error.code).toBe("forbidden");
    const [first, second] = await Promise.all([
      appeal(creator, milestoneId),
      appeal(creator, milestoneId),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const refused = first.status === 409 ? first : second;
    expect(refused.body.error.code).toBe("appeal_exists");
    expect((await eventTypes(milestoneId)).filter((t) => t === "appealed")).toHaveLength(1);

    // A new revision can be appealed again once it is rejected; an awaiting one cannot.
    await submit(creator, milestoneId, goodDeliverable);
    expect((await appeal(creator, milestoneId)).body.error.code).toBe("invalid_state");
  });

  it("upholding keeps the rejection final for that revision; a second decision is refused", async () => {
    const { brand, creator, wallet, milestoneId } = await rejectedMilestone();
    await appeal(creator, milestoneId);
    const upheld = await decide(brand, milestoneId, {
      approve: false,
      reason: "The product is not shown.",
    });
    expect(upheld.status).toBe(200);
    expect(upheld.body.settlement).toBeNull();
    expect(upheld.body.milestone.status).toBe("rejected");
    expect(upheld.body.milestone.review.decision).toMatchObject({ approved: false, score: 0 });

    const again = await decide(brand, milestoneId, {
      approve: true,
      score: 1,
      reason: "Changed my mind.",
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_decided");
    // A settle of the same revision does not re-run the model over the brand's word.
    const model = answering({ approved: true, score: 1, reasoning: "Perfect.", missing: [] });
    const settled = await settleAs(brand, milestoneId, model);
    expect(settled.outcome).toBe("rejected");
    expect(settled.verdict.model).toBe("brand_decision");
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(await transfersTo(wallet)).toHaveLength(0);
    // A failed write records no event: one decided, one rejected.
    const types = await eventTypes(milestoneId);
    expect(types.filter((t) => t === "decided")).toHaveLength(1);
  });

  it("refuses bad decisions with the error envelope and writes nothing", async () => {
    const { brand, creator, milestoneId } = await rejectedMilestone();
    const noScore = await decide(brand, milestoneId, { approve: true, reason: "Fine by me." });
    expect(noScore.status).toBe(400);
    expect(noScore.body.error.details[0].path).toEqual(["score"]);
    const tooHigh = await decide(brand, milestoneId, {
      approve: true,
      score: 1.2,
      reason: "Bonus",
    });
    expect(tooHigh.status).toBe(400);
    const noReason = await decide(brand, milestoneId, { approve: false, reason: " " });
    expect(noReason.status).toBe(400);
    expect(
      (await decide(creator, milestoneId, { approve: true, score: 1, reason: "Pay me" })).body.error
        .code,
    ).toBe("forbidden");
    const db = await getDb();
    expect(
      await db.select().from(decisions).where(eq(decisions.milestoneId, milestoneId)),
    ).toHaveLength(0);
  });
});

describe("exactly once under races", () => {
  it("a decision raced with a settle and a second decision pays once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const model = answering({ approved: true, score: 0.9, reasoning: "Good.", missing: [] });
    const results = await Promise.allSettled([
      settleAs(brand, milestoneId, model),
      decide(brand, milestoneId, { approve: true, score: 0.8, reason: "Good enough." }),
      decide(brand, milestoneId, { approve: true, score: 0.6, reason: "Partly there." }),
      decide(brand, milestoneId, { approve: false, reason: "Not yet." }),
    ]);
    // The settle is a domain call: losing, it throws the 409 the route would answer.
    const [settled, ...decided] = results;
    if (settled?.status === "rejected")
      expect(["settlement_in_progress", "already_settled"]).toContain(settled.reason.code);
    for (const r of decided) {
      expect(r.status).toBe("fulfilled");
      const res = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof decide>>>).value;
      if (res.status !== 200)
        expect([
          "settlement_in_progress",
          "already_settled",
          "already_decided",
          "invalid_state",
        ]).toContain(res.body.error.code);
    }
    const transfers = await transfersTo(wallet);
    expect(transfers).toHaveLength(1);
    const [settlement] = await settlementRows(milestoneId);
    expect(settlement?.status).toBe("confirmed");
    expect(transfers[0]?.args.value).toBe(settlement?.amountUnits);
    expect([45_000_000n, 40_000_000n, 30_000_000n]).toContain(settlement?.amountUnits);
    expect(await usdcBalance(wallet)).toBe(settlement?.amountUnits);
    const types = await eventTypes(milestoneId);
    expect(types.filter((t) => t === "paid")).toHaveLength(1);
    expect(types.filter((t) => t === "approved")).toHaveLength(1);
  });
});

describe("review window", () => {
  it("lets the creator settle only after the brand let the window pass", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const settleBody = { milestoneId, via: "direct" };
    const early = await call(settleRoute.POST, { token: creator.token, body: settleBody });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("review_window_open");
    expect(Date.parse(early.body.error.details.windowEndsAt)).toBeGreaterThan(
      Date.now() + 6 * 86400_000,
    );
    // The creator cannot lower the gate either.
    const lowered = await call(settleRoute.POST, {
      token: creator.token,
      body: { ...settleBody, minScore: 0 },
    });
    expect(lowered.status).toBe(403);

    await backdateSubmission(milestoneId, 7 * 86400 + 1);
    const db = await getDb();
    const timers = await checkTimers(db);
    expect(timers.reviewWindowsElapsed).toBeGreaterThanOrEqual(1);
    expect(
      (await eventTypes(milestoneId)).filter((t) => t === "review_window_elapsed"),
    ).toHaveLength(1);
    await checkTimers(db);
    expect(
      (await eventTypes(milestoneId)).filter((t) => t === "review_window_elapsed"),
    ).toHaveLength(1);

    const model = answering({ approved: true, score: 0.7, reasoning: "Good.", missing: [] });
    const result = await settleAs(creator, milestoneId, model);
    expect(result.outcome).toBe("paid");
    expect(await usdcBalance(wallet)).toBe(35_000_000n);
    const [approved] = await db
      .select({ actorId: dealEvents.actorId })
      .from(dealEvents)
      .where(and(eq(dealEvents.milestoneId, milestoneId), eq(dealEvents.type, "approved")));
    expect(approved?.actorId).toBe(creator.user.id);
  });
});

describe("due dates", () => {
  async function dealWithDueDate(brand: TestUser, creator: TestUser) {
    const dueAt = new Date(Date.now() + 2 * 86400_000).toISOString();
    const created = await call(dealsRoute.POST, {
      token: brand.token,
      body: {
        title: "Two posts",
        milestones: [
          { title: "First post", amount: 30, dueAt, requirements: adOnly },
          { title: "Second post", amount: 20, requirements: adOnly },
        ],
      },
    });
    expect(created.status).toBe(201);
    await fundDeal(brand, created.body.deal.id);
    await call(acceptRoute.POST, { params: { id: created.body.deal.id }, token: creator.token });
    return created.body.deal;
  }

  it("refuses a due date in the past", async () => {
    const { brand } = await parties();
    const res = await call(dealsRoute.POST, {
      token: brand.token,
      body: {
        title: "Too late",
        milestones: [
          { title: "Post", amount: 5, dueAt: new Date(Date.now() - 60_000).toISOString() },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({
      path: ["milestones", "0", "dueAt"],
      message: "must be in the future",
    });
  });

  it("an overdue milestone with nothing delivered goes back to the brand, once", async () => {
    const { brand, creator, wallet } = await parties();
    const deal = await dealWithDueDate(brand, creator);
    const [first, second] = deal.milestones;
    const refund = (id: string) =>
      call(refundRoute.POST, { params: { id }, token: brand.token, body: {} });

    expect((await refund(first.id)).body.error.code).toBe("invalid_state"); // not due yet
    expect((await refund(second.id)).body.error.code).toBe("invalid_state"); // no due date

    const db = await getDb();
    await db
      .update(milestones)
      .set({ dueAt: new Date(Date.now() - 1000) })
      .where(eq(milestones.id, first.id));
    expect((await checkTimers(db)).overdue).toBeGreaterThanOrEqual(1);
    const view = await call(dealRoute.GET, { params: { id: deal.id }, token: brand.token });
    expect(view.body.deal.milestones[0].review.overdue).toBe(true);

    const [a, b] = await Promise.all([refund(first.id), refund(first.id)]);
    const ok = a.status === 200 ? a : b;
    expect(ok.status).toBe(200);
    expect(ok.body.milestone.status).toBe("refunded");
    expect(ok.body.settlement).toMatchObject({
      amount: "0.000000",
      refund: "30.000000",
      status: "confirmed",
    });
    expect((a.status === 200 ? b : a).status).toBe(409);
    expect(await transfersTo(wallet)).toHaveLength(0);
    const after = await call(dealRoute.GET, { params: { id: deal.id }, token: brand.token });
    expect(after.body.deal.escrow).toMatchObject({
      refunded: "30.000000",
      released: "0.000000",
      locked: "20.000000",
    });
    const types = await eventTypes(first.id);
    expect(types).toEqual(["overdue", "decided", "refunded"]);
    // The creator can no longer deliver it.
    const late = await call((await import("@/app/api/milestones/[id]/deliverable/route")).POST, {
      params: { id: first.id },
      token: creator.token,
      body: goodDeliverable,
    });
    expect(late.status).toBe(409);
  });
});
