import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/milestones/[id]/decision/route";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { deliverables, milestones } from "@/db/schema";
import { settleMilestone } from "@/lib/settle/settle";
import { DISCLOSURE_MISSING } from "@/lib/verify/checks";
import { AUTO_SETTLE_CONFIDENCE } from "@/lib/verify/confidence";
import { call } from "../helpers/http";
import type { TestUser } from "../helpers/users";
import {
  type Answer,
  answering,
  answeringWithLogprobs,
  approve,
  launchRequirements,
  launchRules,
  storedVerifications,
  submittedMilestone,
} from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// Trust or escalate: a verdict the verifier is not sure enough of neither pays nor rejects on
// its own. The rubric cannot judge a free-text criterion ("shows the app on screen"), so a
// post meeting every rule is still uncertain: settle answers 409 needs_decision, nothing
// moves, and the brand decides — once, paying once.

const settle = (user: TestUser, milestoneId: string) =>
  call(settleRoute.POST, { token: user.token, body: { milestoneId } });
const decide = (brand: TestUser, milestoneId: string, body: Record<string, unknown>) =>
  call(decisionRoute.POST, { params: { id: milestoneId }, token: brand.token, body });

describe("settle below the auto-settle threshold", () => {
  it("answers 409 needs_decision and moves nothing; the brand's decision then pays once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, undefined, launchRequirements);

    const first = await settle(brand, milestoneId);
    expect(first.status, JSON.stringify(first.body)).toBe(409);
    expect(first.body.error.code).toBe("needs_decision");
    expect(first.body.error.details).toMatchObject({
      confidence: 0.5,
      threshold: AUTO_SETTLE_CONFIDENCE,
      verdict: { approved: true, score: 0.9, verifier: "Rule check", confidence: 0.5 },
    });
    // The verdict is stored (one per revision); the milestone waits, neither paid nor rejected.
    expect(await storedVerifications(milestoneId)).toHaveLength(1);
    const db = await getDb();
    const [m] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    expect(m?.status).toBe("submitted");
    expect(await settlementRows(milestoneId)).toEqual([]);
    // Asking again changes nothing.
    expect((await settle(brand, milestoneId)).body.error.code).toBe("needs_decision");
    expect(await transfersTo(wallet)).toHaveLength(0);

    // The brand looks at the post and decides: pay 90 %.
    const decided = await decide(brand, milestoneId, {
      approve: true,
      score: 0.9,
      reason: "The app is on screen in the first second.",
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.settlement).toMatchObject({ status: "confirmed", amount: "45.000000" });
    expect(decided.body.milestone.status).toBe("paid");
    expect(await usdcBalance(wallet)).toBe(45_000_000n);

    // Paid once: neither a settle nor a second decision pays again.
    const after = await settle(brand, milestoneId);
    expect(after.body.error.code).toBe("already_settled");
    expect(
      (await decide(brand, milestoneId, { approve: true, score: 1, reason: "More." })).body.error
        .code,
    ).toBe("already_settled");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it("a brand that stays silent past the review window cannot hold it: the creator settles by the verdict", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, undefined, launchRequirements);
    expect((await settle(brand, milestoneId)).body.error.code).toBe("needs_decision");
    // Within the window the creator waits for the brand.
    expect((await settle(creator, milestoneId)).body.error.code).toBe("review_window_open");
    // Seven days and a second of silence later, the verdict (90 %) stands.
    const db = await getDb();
    await db
      .update(deliverables)
      .set({
        submittedAt: sql`${deliverables.submittedAt} - make_interval(secs => ${7 * 86400 + 1})`,
      })
      .where(eq(deliverables.milestoneId, milestoneId));
    const paid = await settle(creator, milestoneId);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.outcome).toBe("paid");
    expect(await usdcBalance(wallet)).toBe(45_000_000n);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it("a rule-based rejection is certain: it is rejected without asking the brand", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(
      brand,
      creator,
      { url: "", text: "Launch day! @milestone.app https://milestone.example/launch" },
      launchRequirements,
    );
    const res = await settle(brand, milestoneId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcome).toBe("rejected");
    expect(res.body.verdict).toMatchObject({ confidence: 1, verifier: "Rule check" });
    expect(res.body.verdict.missing).toEqual([
      "hashtag #MilestoneLaunch",
      "hashtag #ad",
      DISCLOSURE_MISSING,
    ]);
  });

  it("an unreadable post is not judged either way: the brand decides", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(
      brand,
      creator,
      { url: "https://unsupported.invalid/post/1", text: "", publish: false },
      launchRequirements,
    );
    const res = await settle(brand, milestoneId);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("needs_decision");
    expect(res.body.error.details.verdict).toMatchObject({ approved: false, confidence: 0 });
  });

  it("a model judging the criterion alone is uncertain too; without criteria it settles", async () => {
    const { brand, creator } = await parties();
    const judged = await submittedMilestone(brand, creator, undefined, launchRequirements);
    const opts = { verifier: { model: answering(approve), retryDelayMs: 1, timeoutMs: 2_000 } };
    await expect(
      settleMilestone(
        await getDb(),
        brand.user,
        { milestoneId: judged.milestoneId, via: "direct" },
        opts,
      ),
    ).rejects.toMatchObject({ code: "needs_decision" });
    const ruled = await submittedMilestone(brand, creator);
    const paid = await settleMilestone(
      await getDb(),
      brand.user,
      { milestoneId: ruled.milestoneId, via: "direct" },
      { verifier: { model: answering(approve), retryDelayMs: 1, timeoutMs: 2_000 } },
    );
    expect(paid.outcome).toBe("paid");
    expect(paid.verdict.confidence).toBe(1);
  });
});

// The threshold is the deal's (autoSettleConfidence, 50–100 %, default 0.9).
describe("the deal's auto-settle threshold", () => {
  const fast = { retryDelayMs: 1, timeoutMs: 2_000 };
  const settleWith = async (brand: TestUser, milestoneId: string, verifier: object) =>
    settleMilestone(await getDb(), brand.user, { milestoneId, via: "direct" }, { verifier });
  const reject: Answer = { approved: false, score: 0.2, reasoning: "Off-brief.", missing: ["x"] };
  /** Ten models, nine approving: the panel's confidence is 0.9, exactly the default threshold. */
  const panelOfTen = () =>
    Array.from({ length: 10 }, (_, i) => ({
      model: answering(i === 9 ? reject : approve),
      id: `mock#${i}`,
    }));

  it("at 50 % a one-model verdict on a criterion settles on its own; the rule check's still goes to the brand", async () => {
    const { brand, creator, wallet } = await parties();
    const trusting = { autoSettleConfidence: 0.5 };
    const judged = await submittedMilestone(
      brand,
      creator,
      undefined,
      launchRequirements,
      trusting,
    );
    const paid = await settleWith(brand, judged.milestoneId, {
      ...fast,
      model: answering(approve),
    });
    expect(paid.outcome).toBe("paid");
    expect(paid.verdict).toMatchObject({ confidence: 0.5, score: 0.92 });
    expect(await usdcBalance(wallet)).toBe(46_000_000n);

    // Nobody judged the criterion: never settled on its own, whatever the threshold.
    const unjudged = await submittedMilestone(
      brand,
      creator,
      undefined,
      launchRequirements,
      trusting,
    );
    const res = await settle(brand, unjudged.milestoneId);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("needs_decision");
    expect(res.body.error.message).toContain("cannot judge this milestone's free-text criteria");
    expect(res.body.error.details).toMatchObject({
      confidence: 0.5,
      threshold: 0.5,
      verdict: { verifier: "Rule check" },
    });
    expect(await settlementRows(unjudged.milestoneId)).toEqual([]);
  });

  it("a stricter deal escalates a verdict the default threshold settles", async () => {
    const { brand, creator } = await parties();
    // The default (0.9): the panel's 90 % agreement settles on its own.
    const usual = await submittedMilestone(brand, creator, undefined, launchRequirements);
    const paid = await settleWith(brand, usual.milestoneId, { ...fast, panel: panelOfTen() });
    expect(paid.outcome).toBe("paid");
    expect(paid.verdict.confidence).toBe(0.9);

    // The same verdict on a deal asking for 95 %: the brand decides; nothing moves.
    const strict = await submittedMilestone(brand, creator, undefined, launchRequirements, {
      autoSettleConfidence: 0.95,
    });
    await expect(
      settleWith(brand, strict.milestoneId, { ...fast, panel: panelOfTen() }),
    ).rejects.toMatchObject({
      code: "needs_decision",
      message: expect.stringContaining("below this deal's auto-settle threshold of 95 %"),
      details: { confidence: 0.9, threshold: 0.95 },
    });
    expect(await settlementRows(strict.milestoneId)).toEqual([]);
    // Through the API the stored verdict answers the same (no second model call).
    const again = await settle(brand, strict.milestoneId);
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({ confidence: 0.9, threshold: 0.95 });
    // The brand's decision pays it, once.
    const decided = await decide(brand, strict.milestoneId, {
      approve: true,
      score: 1,
      reason: "Checked the post myself.",
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.settlement).toMatchObject({ status: "confirmed", amount: "50.000000" });
  });

  it("at 100 % what rules decide still settles on its own (certain)", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, undefined, launchRules, {
      autoSettleConfidence: 1,
    });
    // Rules decide everything here: certain, so even 100 % settles on its own.
    const res = await settle(brand, milestoneId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcome).toBe("paid");
    expect(res.body.verdict.confidence).toBe(1);
  });

  it("a model's calibrated probability decides for one model: sure enough settles at the default, less sure goes to the brand", async () => {
    const { brand, creator } = await parties();
    // Fitted so that a raw 0.999 becomes about 0.95 and a raw 0.9 about 0.72.
    const calibration = { model: "mock", method: "platt" as const, a: 0.43, b: 0 };
    const sure = await submittedMilestone(brand, creator, undefined, launchRequirements);
    const paid = await settleWith(brand, sure.milestoneId, {
      ...fast,
      model: answeringWithLogprobs(approve, 0.999),
      calibration,
    });
    expect(paid.outcome).toBe("paid");
    expect(paid.verdict.confidence).toBeGreaterThanOrEqual(0.9);
    expect(paid.verdict.confidence).toBeLessThan(1);

    const unsure = await submittedMilestone(brand, creator, undefined, launchRequirements);
    await expect(
      settleWith(brand, unsure.milestoneId, {
        ...fast,
        model: answeringWithLogprobs(approve, 0.9),
        calibration,
      }),
    ).rejects.toMatchObject({ code: "needs_decision", details: { threshold: 0.9 } });
    expect(await settlementRows(unsure.milestoneId)).toEqual([]);
  });
});
