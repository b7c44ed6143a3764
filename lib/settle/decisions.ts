import { type Hex, keccak256, toBytes } from "viem";
import { z } from "zod";
import type { Db, Tx } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { findVisibleMilestone } from "@/db/queries/deals";
import {
  findMilestoneSettlement,
  insertAppeal,
  insertDecision,
  listVerdictHashes,
  lockMilestone,
  markAppealDecided,
  markMilestoneRejected,
} from "@/db/queries/decisions";
import type { Appeal, Deal, Milestone, SettlementVia } from "@/db/schema";
import { now } from "@/lib/clock";
import type { Caller } from "@/lib/deals/deals";
import { getMilestone, milestoneDetailSchema } from "@/lib/deals/milestones";
import { type SettlementJson, settlementJson, settlementSchema } from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/events";
import { scoreToBps } from "@/lib/money";
import { advanceSettlement, isStillPending, requestWaitMs } from "@/lib/settle/advance";
import { changesRequested, sentBackForChanges } from "@/lib/settle/change-requests";
import { appealFor, appealJson, appealSchema, decisionFor, isOverdue } from "@/lib/settle/review";
import { claim, claimedMeanwhile } from "@/lib/settle/settle";
import { canonicalJson } from "@/lib/verify/record";

// People in the loop. A creator may appeal a rejected revision once; the brand decides on
// a rejected or undecided revision — pay it at a score the brand chooses, or uphold the
// rejection — always with a written reason. A decision to pay goes through the very claim
// the settle path uses (one settlement per milestone, the deal's budget, the escrow
// release), so a decision raced with a settle, or with a second decision, pays once.

export type DecideInput = {
  milestoneId: string;
  approve: boolean;
  /** Required to approve: the share of the milestone to pay, 0 < score ≤ 1. */
  score?: number;
  reason: string;
  via: SettlementVia;
};

export const decisionResponse = z.object({
  milestone: milestoneDetailSchema,
  settlement: settlementSchema.nullable(),
  poll: z
    .string()
    .optional()
    .describe(
      "202 only: the release is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; the milestone's URL, whose settlement turns confirmed",
    ),
});
export type DecideResult = z.infer<typeof decisionResponse>;

/** POST /api/milestones/:id/appeal answers the appeal and the milestone it is on. */
export const appealResponse = z.object({ appeal: appealSchema, milestone: milestoneDetailSchema });

/**
 * The decision record, canonically serialised like a verdict record (lib/verify/record.ts):
 * who decided what, why, on which revision and on which verdict. Its hash is what the
 * escrow release carries, so the payment points at the decision, not at the model.
 */
export type DecisionRecord = {
  source: "brand_decision";
  milestoneId: string;
  revision: number;
  approved: boolean;
  scoreBps: number;
  reason: string;
  decidedBy: string;
  appealId: string | null;
  /** The verifier's verdict record this decision overrides, if there was one. */
  verdictHash: string | null;
  decidedAt: string;
};

export function hashDecisionRecord(record: DecisionRecord): { record: string; hash: Hex } {
  const text = canonicalJson(record);
  return { record: text, hash: keccak256(toBytes(text)) };
}

async function decidableMilestone(
  db: Db,
  caller: Caller,
  milestoneId: string,
): Promise<{ deal: Deal; milestone: Milestone }> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  if (!row) throw notFound("Milestone");
  const { deal, milestone } = row;
  if (deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can decide on its milestones.");
  if (deal.status !== "active" && deal.status !== "completed")
    throw new AppError("invalid_state", `The deal is ${deal.status}; there is nothing to decide.`);
  if (sentBackForChanges(milestone)) throw changesRequested(milestone);
  if (milestone.status === "pending")
    throw new AppError("no_deliverable", "Nothing has been submitted yet.");
  const existing = await findMilestoneSettlement(db, milestone.id);
  if (existing) await claimedMeanwhile(db, milestone.id, new Error("settled"));
  if (milestone.status !== "submitted" && milestone.status !== "rejected")
    throw new AppError(
      "invalid_state",
      `The milestone is ${milestone.status}; it cannot be decided.`,
    );
  return { deal, milestone };
}

function alreadyDecided(): AppError {
  return new AppError(
    "already_decided",
    "This revision has already been decided. The creator can submit a new revision.",
  );
}

/** Inside the deciding transaction: the decision row, the appeal it answers, its event. */
async function writeDecision(
  tx: Tx,
  deal: Deal,
  m: Milestone,
  record: DecisionRecord,
  text: string,
  hash: Hex,
): Promise<void> {
  await insertDecision(tx, {
    milestoneId: m.id,
    dealId: deal.id,
    revision: record.revision,
    deciderId: record.decidedBy,
    approved: record.approved,
    scoreBps: record.scoreBps,
    reason: record.reason,
    appealId: record.appealId,
    record: text,
    recordHash: hash,
  });
  if (record.appealId) await markAppealDecided(tx, record.appealId);
  await recordEvent(tx, {
    dealId: deal.id,
    milestoneId: m.id,
    type: "decided",
    actorId: record.decidedBy,
    data: {
      revision: record.revision,
      approved: record.approved,
      score: record.scoreBps / 10_000,
      reason: record.reason,
      appealId: record.appealId,
    },
  });
}

/** POST /api/milestones/:id/decision — the brand approves at a chosen score, or upholds. */
export async function decideMilestone(
  db: Db,
  caller: Caller,
  input: DecideInput,
): Promise<DecideResult> {
  const { deal, milestone } = await decidableMilestone(db, caller, input.milestoneId);
  if (input.approve && (input.score === undefined || input.score <= 0))
    throw new AppError("invalid_request", "The request body is invalid.", {
      details: [
        { path: ["score"], message: "is required to approve (more than 0 %)", code: "custom" },
      ],
    });
  const revision = milestone.revision;
  const [appeal, verified] = await Promise.all([
    appealFor(db, milestone.id, revision),
    listVerdictHashes(db, milestone.id, revision),
  ]);
  if (await decisionFor(db, milestone.id, revision)) throw alreadyDecided();
  const record: DecisionRecord = {
    source: "brand_decision",
    milestoneId: milestone.id,
    revision,
    approved: input.approve,
    scoreBps: input.approve ? scoreToBps(input.score as number) : 0,
    reason: input.reason,
    decidedBy: caller.id,
    appealId: appeal?.status === "open" ? appeal.id : null,
    verdictHash: verified[0]?.recordHash ?? null,
    decidedAt: now().toISOString(),
  };
  const { record: text, hash } = hashDecisionRecord(record);

  if (!input.approve) {
    try {
      await db.transaction(async (tx) => {
        const locked = await lockMilestone(tx, milestone.id);
        if (
          !locked ||
          locked.revision !== revision ||
          !["submitted", "rejected"].includes(locked.status)
        )
          throw new AppError(
            "invalid_state",
            "The milestone changed meanwhile (settled or resubmitted); reload it and decide again.",
          );
        await writeDecision(tx, deal, milestone, record, text, hash);
        await markMilestoneRejected(tx, milestone.id, revision);
      });
    } catch (err) {
      if (isUniqueViolation(err, "decisions_milestone_revision_key")) throw alreadyDecided();
      throw err;
    }
    return { milestone: await getMilestone(db, caller, milestone.id), settlement: null };
  }

  return payOnDecision(db, caller, deal, milestone, record, input.via);
}

/**
 * A decision that releases the milestone: the decision row and the settlement are written
 * by the settle path's own claim, in one transaction, then the release is sent. A second
 * decision, or a settle that claimed first, gets its 409.
 */
async function payOnDecision(
  db: Db,
  caller: Caller,
  deal: Deal,
  milestone: Milestone,
  record: DecisionRecord,
  via: SettlementVia,
): Promise<DecideResult> {
  const { record: text, hash } = hashDecisionRecord(record);
  let settlementId: string;
  try {
    const created = await claim(
      db,
      deal,
      milestone,
      { revision: record.revision, scoreBps: record.scoreBps, verdictHash: hash },
      via,
      { actorId: caller.id, inTx: (tx) => writeDecision(tx, deal, milestone, record, text, hash) },
    );
    settlementId = created.id;
  } catch (err) {
    if (isUniqueViolation(err, "decisions_milestone_revision_key")) throw alreadyDecided();
    if (err instanceof AppError && err.code !== "settlement_in_progress") throw err;
    return claimedMeanwhile(db, milestone.id, err);
  }
  // The receipt is waited for within the request's budget, as settle does: past it, the
  // answer is the settlement `submitted` (202) and reconcile finishes the payment.
  try {
    const paid = await advanceSettlement(db, settlementId, {
      leaseHeld: true,
      waitMs: requestWaitMs(),
    });
    return {
      milestone: await getMilestone(db, caller, milestone.id),
      settlement: settlementJson(paid),
    };
  } catch (err) {
    if (!isStillPending(err)) throw err;
    return {
      milestone: await getMilestone(db, caller, milestone.id),
      settlement: (err.details as { settlement: SettlementJson }).settlement,
      poll: `/api/milestones/${milestone.id}`,
    };
  }
}

/** POST /api/milestones/:id/appeal — the creator contests a rejected revision, once. */
export async function appealMilestone(
  db: Db,
  caller: Caller,
  input: { milestoneId: string; reason: string },
): Promise<z.infer<typeof appealResponse>> {
  const row = await findVisibleMilestone(db, caller, input.milestoneId);
  if (!row) throw notFound("Milestone");
  const { deal, milestone } = row;
  if (deal.creatorId !== caller.id)
    throw new AppError("forbidden", "Only the deal's creator can appeal its verdicts.");
  if (deal.status !== "active")
    throw new AppError("invalid_state", `The deal is ${deal.status}; it takes no more appeals.`);
  let created: Appeal | undefined;
  try {
    created = await db.transaction(async (tx) => {
      const locked = await lockMilestone(tx, milestone.id);
      if (locked?.status !== "rejected")
        throw new AppError("invalid_state", "Only a rejected submission can be appealed.", {
          details: { status: locked?.status ?? null },
        });
      if (await decisionFor(tx, locked.id, locked.revision))
        throw new AppError(
          "already_decided",
          "The brand has already decided on this revision; submit a new revision instead.",
        );
      const appeal = await insertAppeal(tx, {
        milestoneId: locked.id,
        dealId: deal.id,
        revision: locked.revision,
        creatorId: caller.id,
        reason: input.reason,
      });
      await recordEvent(tx, {
        dealId: deal.id,
        milestoneId: locked.id,
        type: "appealed",
        actorId: caller.id,
        data: { revision: locked.revision, reason: input.reason },
      });
      return appeal;
    });
  } catch (err) {
    if (isUniqueViolation(err, "appeals_milestone_revision_key"))
      throw new AppError(
        "appeal_exists",
        "This revision has already been appealed; one appeal per revision.",
      );
    throw err;
  }
  if (!created) throw new Error("insert returned no appeal");
  return { appeal: appealJson(created), milestone: await getMilestone(db, caller, milestone.id) };
}

/**
 * POST /api/milestones/:id/refund — a milestone past its due date with nothing delivered
 * goes back to the brand: a release paying the creator 0 and the brand the whole amount,
 * through the same claim (a creator submitting at that moment either wins the milestone's
 * row lock first — and the refund is refused — or finds it settling).
 */
export async function refundOverdue(
  db: Db,
  caller: Caller,
  input: { milestoneId: string; reason?: string; via: SettlementVia },
): Promise<DecideResult> {
  const row = await findVisibleMilestone(db, caller, input.milestoneId);
  if (!row) throw notFound("Milestone");
  const { deal, milestone } = row;
  if (deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can take back an overdue milestone.");
  if (deal.status !== "active")
    throw new AppError("invalid_state", `The deal is ${deal.status}; nothing to refund here.`);
  if (!isOverdue(milestone))
    throw new AppError(
      "invalid_state",
      milestone.status !== "pending"
        ? "The creator has delivered this milestone; decide on it instead."
        : milestone.dueAt
          ? `This milestone is due ${milestone.dueAt.toISOString()}; it can be refunded after that.`
          : "This milestone has no due date, so it never becomes overdue.",
    );
  const record: DecisionRecord = {
    source: "brand_decision",
    milestoneId: milestone.id,
    revision: milestone.revision,
    approved: false,
    scoreBps: 0,
    reason: input.reason?.trim() || "Overdue: nothing was delivered by the due date.",
    decidedBy: caller.id,
    appealId: null,
    verdictHash: null,
    decidedAt: now().toISOString(),
  };
  return payOnDecision(db, caller, deal, milestone, record, input.via);
}
