import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { listDealMilestones } from "@/db/queries/deals";
import {
  findAppeal,
  findDecision,
  findSubmittedAt,
  findVerification,
  listReviewRows,
} from "@/db/queries/reviews";
import type { Appeal, Deal, Decision, Milestone, Settlement } from "@/db/schema";
import { iso, score } from "@/lib/api/fields";
import { now } from "@/lib/clock";
import {
  type DealJson,
  dealSchema,
  milestoneSchema,
  type VerdictJson,
  verdictJson,
} from "@/lib/deals/serialize";
import { bpsToScore } from "@/lib/money";
import { BRAND_DECISION } from "@/lib/verify/labels";

// The people around a verdict: the creator's appeal of a rejection, the brand's decision
// on a revision, and the review window after which the creator may settle on their own.
// Reads only; the writes are in lib/settle/decisions.ts.

export const appealSchema = z
  .object({
    id: z.uuid(),
    revision: z.number().int().positive(),
    reason: z.string(),
    status: z.enum(["open", "decided"]),
    createdAt: iso,
    decidedAt: iso.nullable(),
  })
  .meta({ id: "Appeal" });
export type AppealJson = z.infer<typeof appealSchema>;

export const decisionSchema = z
  .object({
    id: z.uuid(),
    revision: z
      .number()
      .int()
      .nonnegative()
      .describe("0: the refund of an overdue milestone with nothing delivered"),
    approved: z.boolean(),
    score,
    reason: z.string(),
    decidedBy: z.object({ id: z.uuid(), name: z.string() }),
    appealId: z.uuid().nullable(),
    recordHash: z.string().describe("keccak256 of the canonical decision record"),
    decidedAt: iso,
  })
  .meta({ id: "Decision" });
export type DecisionJson = z.infer<typeof decisionSchema>;

/**
 * Where a milestone stands with the people, for its current revision only. `creatorMaySettle`:
 * the window has passed without a settlement or decision; `overdue`: past its due date with
 * nothing submitted, the brand may take its money back.
 */
export const reviewSchema = z
  .object({
    windowEndsAt: iso.nullable().describe("When the brand's review window ends (null: none)"),
    creatorMaySettle: z.boolean(),
    overdue: z.boolean(),
    appeal: appealSchema.nullable(),
    decision: decisionSchema.nullable(),
  })
  .meta({ id: "Review" });
export type ReviewJson = z.infer<typeof reviewSchema>;

export const milestoneWithReviewSchema = milestoneSchema
  .extend({ review: reviewSchema })
  .meta({ id: "MilestoneWithReview" });
export type MilestoneReviewJson = z.infer<typeof milestoneWithReviewSchema>;

export const dealDetailSchema = dealSchema
  .extend({
    reviewWindowSeconds: z.number().int().nonnegative(),
    milestones: z.array(milestoneWithReviewSchema),
  })
  .meta({ id: "DealDetail" });
export type DealDetailJson = z.infer<typeof dealDetailSchema>;
/** GET /api/deals/:id: the deal page's one read. */
export const dealDetailResponse = z.object({ deal: dealDetailSchema });

export const appealJson = (a: Appeal): AppealJson => ({
  id: a.id,
  revision: a.revision,
  reason: a.reason,
  status: a.status,
  createdAt: a.createdAt.toISOString(),
  decidedAt: a.decidedAt?.toISOString() ?? null,
});

export const decisionJson = (d: Decision, deciderName: string): DecisionJson => ({
  id: d.id,
  revision: d.revision,
  approved: d.approved,
  score: bpsToScore(d.scoreBps),
  reason: d.reason,
  decidedBy: { id: d.deciderId, name: deciderName },
  appealId: d.appealId,
  recordHash: d.recordHash,
  decidedAt: d.createdAt.toISOString(),
});

/** A brand decision in the verdict's shape (the settle response's `verdict`). */
export const decisionVerdictJson = (d: Decision): VerdictJson => ({
  approved: d.approved,
  score: bpsToScore(d.scoreBps),
  reasoning: `Brand decision: ${d.reason}`,
  missing: [],
  model: "brand_decision",
  verifier: BRAND_DECISION,
  deductions: [],
  confidence: 1,
  revision: d.revision,
  verifiedAt: d.createdAt.toISOString(),
});

export const decisionFor = findDecision;
export const appealFor = findAppeal;

/** The verdict a settlement was paid on: the brand's decision if there is one, else the verifier's. */
export async function verdictOfSettlement(db: DbOrTx, s: Settlement): Promise<VerdictJson> {
  const decided = await decisionFor(db, s.milestoneId, s.revision);
  if (decided) return decisionVerdictJson(decided);
  const v = await findVerification(db, s.milestoneId, s.revision);
  if (!v) throw new Error(`settlement ${s.id} has no verdict for revision ${s.revision}`);
  return verdictJson(v);
}

/**
 * The end of the brand's review window for a milestone's current submission, the one rule
 * both the settle path and the JSON use: it runs while the milestone is `submitted`, from
 * that revision's submission (null: no window open).
 */
function windowEnd(deal: Deal, m: Milestone, submittedAt: Date | undefined): Date | null {
  if (m.status !== "submitted" || m.revision === 0 || !submittedAt) return null;
  return new Date(submittedAt.getTime() + deal.reviewWindowSeconds * 1000);
}

const windowPassed = (endsAt: Date | null, at: Date) =>
  endsAt !== null && at.getTime() >= endsAt.getTime();

/** The review window of a milestone's current submission, measured on the service's clock. */
export async function reviewWindow(
  db: DbOrTx,
  deal: Deal,
  m: Milestone,
  at: Date = now(),
): Promise<{ endsAt: Date | null; creatorMaySettle: boolean }> {
  const submittedAt =
    m.status === "submitted" ? await findSubmittedAt(db, m.id, m.revision) : undefined;
  const endsAt = windowEnd(deal, m, submittedAt);
  return { endsAt, creatorMaySettle: windowPassed(endsAt, at) };
}

/**
 * Past its due date with nothing ever delivered. A milestone the brand sent back for changes
 * (`pending` on a submitted revision) is not overdue: the creator delivered on time, and a
 * change request must not become a way to take the money back.
 */
export function isOverdue(m: Milestone, at: Date = now()): boolean {
  return (
    m.status === "pending" &&
    m.revision === 0 &&
    m.dueAt !== null &&
    m.dueAt.getTime() <= at.getTime()
  );
}

/** The review state of each milestone of one deal (its current revisions), in four queries. */
export async function reviewsOf(
  db: DbOrTx,
  deal: Deal,
  ms: Milestone[],
  at: Date = now(),
): Promise<Map<string, ReviewJson>> {
  const out = new Map<string, ReviewJson>();
  if (ms.length === 0) return out;
  const rows = await listReviewRows(
    db,
    ms.map((m) => m.id),
  );
  for (const m of ms) out.set(m.id, reviewFrom(deal, m, rows, at));
  return out;
}

export type ReviewRows = Awaited<ReturnType<typeof listReviewRows>>;

/** One milestone's review state from rows already read (its own among `rows`). */
export function reviewFrom(
  deal: Deal,
  m: Milestone,
  rows: ReviewRows,
  at: Date = now(),
): ReviewJson {
  const sub = rows.submissions.find((d) => d.milestoneId === m.id && d.revision === m.revision);
  const endsAt = windowEnd(deal, m, sub?.submittedAt);
  const appeal = rows.appeals.find((a) => a.milestoneId === m.id && a.revision === m.revision);
  const decided = rows.decisions.find(
    (d) => d.decision.milestoneId === m.id && d.decision.revision === m.revision,
  );
  return {
    windowEndsAt: endsAt?.toISOString() ?? null,
    creatorMaySettle: windowPassed(endsAt, at),
    overdue: isOverdue(m, at),
    appeal: appeal ? appealJson(appeal) : null,
    decision: decided ? decisionJson(decided.decision, decided.name ?? "The brand") : null,
  };
}

/** A deal's JSON with each milestone's review state: the deal page's one read. */
export async function withReviews(db: DbOrTx, deal: Deal, json: DealJson): Promise<DealDetailJson> {
  const reviews = await reviewsOf(db, deal, await listDealMilestones(db, deal.id));
  return {
    ...json,
    reviewWindowSeconds: deal.reviewWindowSeconds,
    milestones: json.milestones.map((m) => ({
      ...m,
      review: reviews.get(m.id) ?? emptyReview,
    })),
  };
}

const emptyReview: ReviewJson = {
  windowEndsAt: null,
  creatorMaySettle: false,
  overdue: false,
  appeal: null,
  decision: null,
};
