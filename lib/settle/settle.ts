import { type Address, getAddress } from "viem";
import { z } from "zod";
import type { Db, Tx as DbTx } from "@/db/client";
import {
  findMilestoneSettlement,
  lockMilestone,
  markMilestoneRejected,
} from "@/db/queries/decisions";
import { lockDeal } from "@/db/queries/escrow";
import { findSettleStart } from "@/db/queries/settle-view";
import {
  approveMilestone,
  committedUnits,
  findSettlement,
  insertSettlement,
} from "@/db/queries/settlements";
import type { Deal, Milestone, Settlement, SettlementVia, Verification } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { relayStatus } from "@/lib/chain/relay";
import type { GasEstimate } from "@/lib/chain/sender";
import type { Caller } from "@/lib/deals/deals";
import { claimPaidPost, paidPostKeys } from "@/lib/deals/evidence-claims";
import { getMilestone, milestoneDetailOf, milestoneDetailSchema } from "@/lib/deals/milestones";
import {
  type SettlementJson,
  settlementJson,
  settlementSchema,
  type VerdictJson,
  verdictJson,
  verdictSchema,
} from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { assignCreatorOnChain } from "@/lib/escrow/deals";
import { recordEvent } from "@/lib/events/events";
import { bpsToScore, payoutUnits, scoreToBps, unitsToDecimal } from "@/lib/money";
import {
  advanceSettlement,
  isStillPending,
  leaseSeconds,
  requestWaitMs,
} from "@/lib/settle/advance";
import { type Claimed, payClaimed, ReleaseQueue, releasesBusy } from "@/lib/settle/batch";
import { changesRequested, sentBackForChanges } from "@/lib/settle/change-requests";
import { estimateRelease } from "@/lib/settle/payment";
import { recordReputationAfterResponse } from "@/lib/settle/reputation";
import { decisionVerdictJson, reviewWindow, verdictOfSettlement } from "@/lib/settle/review";
import { autoSettles, unjudged } from "@/lib/verify/confidence";
import type { VerifierOptions } from "@/lib/verify/verifier";
import { ensureRecordHash, verdictForRevision } from "@/lib/verify/verify-milestone";

// POST /api/settle: verdict → gate → milestone approved → USDC transfer → paid.
// The verdict is the stored one for the current revision (one model call per revision);
// the gate's outcome and the settlement row are written before any money moves; the
// unique settlement per milestone and the lease make concurrent calls pay exactly once.

export type SettleInput = { milestoneId: string; via: SettlementVia; minScore?: number };

export const settleResponse = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("paid"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
    settlement: settlementSchema,
  }),
  z.object({
    outcome: z.literal("rejected"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
  }),
  // The release is sent but the chain has not confirmed it within the request's budget
  // (CHAIN_BUDGET_SECONDS): the route answers 202. Reconcile finishes it; `poll` is the
  // milestone, whose settlement turns `confirmed` (the inbox, e-mail and webhooks say so).
  z.object({
    outcome: z
      .literal("submitted")
      .describe("202: the release is sent, the chain has not confirmed it within the budget"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
    settlement: settlementSchema,
    poll: z.string().describe("The milestone's URL: its settlement turns confirmed"),
  }),
]);
export type SettleResult = z.infer<typeof settleResponse>;

function alreadySettled(s: Settlement): AppError {
  return new AppError("already_settled", "This milestone has already been paid.", {
    details: { settlement: settlementJson(s) },
  });
}

/**
 * The gate failed: the milestone is rejected (the creator may submit a new revision). When
 * the brand sent the revision back for changes meanwhile, nothing is rejected: 409.
 */
async function reject(db: Db, m: Milestone, v: Verification, actorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (await markMilestoneRejected(tx, m.id, v.revision))
      return recordEvent(tx, {
        dealId: m.dealId,
        milestoneId: m.id,
        type: "rejected",
        actorId,
        data: { revision: v.revision, score: v.scoreBps / 10_000, missing: v.missing },
      });
    const now = await lockMilestone(tx, m.id);
    if (now && sentBackForChanges(now) && now.revision === v.revision) throw changesRequested(now);
  });
}

/**
 * 409 needs_decision when the verdict's confidence is below the deal's auto-settle threshold,
 * or when part of it nobody judged (lib/verify/confidence.ts).
 */
function assertSureEnough(deal: Deal, v: Verification): void {
  const verdict = verdictJson(v);
  const threshold = bpsToScore(deal.autoSettleConfidenceBps);
  if (autoSettles(verdict, threshold)) return;
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  throw new AppError(
    "needs_decision",
    // Sure enough for the threshold, but a rule check that judged nothing of the criteria.
    unjudged(verdict) && verdict.confidence >= threshold
      ? `The rule check cannot judge this milestone's free-text criteria, so its verdict does not settle on its own whatever the deal's threshold: the brand decides (pay at a chosen score, or uphold a rejection).`
      : `The verifier is ${pct(verdict.confidence)} sure of this verdict, below this deal's auto-settle threshold of ${pct(threshold)}: the brand decides (pay at a chosen score, or uphold a rejection).`,
    { details: { confidence: verdict.confidence, threshold, verdict } },
  );
}

/**
 * The money is in the escrow and the creator's payout address is recorded there: the only
 * state in which a release can succeed. Finishes an assignment left half-done.
 */
async function releasableDeal(db: Db, deal: Deal): Promise<Deal> {
  if (!deal.fundedAt)
    throw new AppError(
      "not_funded",
      "The deal's escrow is not funded, so there is nothing to release.",
    );
  if (!deal.creatorId || !deal.creatorWallet)
    throw new AppError("invalid_state", "The deal has no creator to pay.");
  return deal.assignedAt ? deal : assignCreatorOnChain(db, deal);
}

/** What a settlement pays on: a verdict (the verifier's) or a brand decision, by revision. */
export type ClaimBasis = { revision: number; scoreBps: number; verdictHash: string };

/**
 * The gate passed (or the brand decided to pay): in one transaction, check the milestone is
 * still on this revision and the deal's budget covers the payout, then create the
 * settlement (leased to this caller: payout to the creator's on-chain address, the rest
 * back to the brand, the verdict record's hash) and mark the milestone approved. `inTx`
 * adds the caller's own rows (a decision, its event) to that same transaction.
 */
export async function claim(
  db: Db,
  deal: Deal,
  m: Milestone,
  basis: ClaimBasis,
  via: SettlementVia,
  opts: { actorId: string; inTx?: (tx: DbTx) => Promise<void> },
): Promise<Settlement> {
  const funded = await releasableDeal(db, deal);
  const recipient = getAddress(funded.creatorWallet as string) as Address;
  const amountUnits = payoutUnits(m.amountUnits, basis.scoreBps);

  return db.transaction(async (tx) => {
    // The deal row lock serialises settlements of one deal, for the budget check. NO KEY
    // UPDATE (here and on the milestone): it still excludes every other claim, but not the
    // key-share locks that inserts referencing these rows take (events, decisions, appeals),
    // which FOR UPDATE blocked — a decision or appeal raced with a claim deadlocked (a 500).
    // The statements are sent together (pipelined, one round trip) and run in this order:
    // the budget is summed once both locks are held. The post a payout is made for is read
    // with them (a revision's deliverable and evidence are written once).
    const [, locked, committed, postKeys] = await Promise.all([
      lockDeal(tx, deal.id),
      lockMilestone(tx, m.id),
      committedUnits(tx, deal.id),
      basis.scoreBps > 0 ? paidPostKeys(tx, m.id, basis.revision) : [],
    ]);
    if (!locked) throw notFound("Milestone");
    if (locked.status === "approved" || locked.status === "paid")
      throw new AppError("settlement_in_progress", "This milestone is being settled right now.");
    if (locked.status === "refunded")
      throw new AppError("invalid_state", "This milestone's money went back to the brand.");
    // The brand sent this revision back for changes (after this caller read it): its verdict
    // or decision no longer counts. (A `pending` milestone on revision 0 is an overdue
    // refund's, which pays nothing.)
    if (sentBackForChanges(locked)) throw changesRequested(locked);
    if (locked.revision !== basis.revision)
      throw new AppError(
        "invalid_state",
        "A new deliverable was submitted meanwhile; settle again to verify it.",
      );
    if (committed + amountUnits > deal.budgetUnits)
      throw new AppError("budget_exceeded", "This payout would take the deal over its budget.");
    // One post, one payment: the revision's post (its URL, the canonical URL its platform
    // named, its evidence's content hash) is claimed for good, or 409 evidence_already_used
    // when another milestone holds it, whichever path pays (settle, the creator's own settle
    // after the review window, a decision). A refund (nothing paid) claims nothing.
    // Sent with the settlement's statements below when there is no caller's own write to
    // come between: a post held by another milestone throws, and rolls all of it back.
    const claimed = claimPaidPost(
      tx,
      { milestoneId: m.id, dealId: deal.id, revision: basis.revision },
      postKeys,
    );
    if (opts.inTx) {
      await claimed;
      await opts.inTx(tx);
    }
    // Again one round trip: the settlement, the milestone approved, the event.
    const [, created] = await Promise.all([
      claimed,
      insertSettlement(
        tx,
        {
          milestoneId: m.id,
          dealId: deal.id,
          via,
          chainId: chainConfig().chainId,
          recipient,
          amountUnits,
          refundUnits: m.amountUnits - amountUnits,
          verdictHash: basis.verdictHash,
          scoreBps: basis.scoreBps,
          revision: basis.revision,
        },
        leaseSeconds(),
      ),
      approveMilestone(tx, m.id),
      // A zero payout is an overdue milestone's refund: its decision's event says so.
      basis.scoreBps > 0
        ? recordEvent(tx, {
            dealId: deal.id,
            milestoneId: m.id,
            type: "approved",
            actorId: opts.actorId,
            data: {
              revision: basis.revision,
              score: basis.scoreBps / 10_000,
              payout: unitsToDecimal(amountUnits),
              refund: unitsToDecimal(m.amountUnits - amountUnits),
              via,
            },
          })
        : undefined,
    ]);
    if (!created) throw new Error("insert returned no settlement");
    return created;
  });
}

/** A concurrent caller claimed first (unique settlement per milestone): say how it stands. */
export async function claimedMeanwhile(db: Db, milestoneId: string, err: unknown): Promise<never> {
  const other = await findMilestoneSettlement(db, milestoneId);
  if (!other) throw err;
  if (other.status === "confirmed") throw alreadySettled(other);
  throw new AppError("settlement_in_progress", "This milestone is being settled right now.", {
    details: { settlement: settlementJson(other) },
  });
}

/**
 * Who may settle: the brand at any time; the creator once the brand has let the review
 * window pass after the current submission (lib/settle/review.ts) — the brand cannot stall
 * the payment, and the same verifier and gate apply.
 */
async function assertMaySettle(
  db: Db,
  caller: Caller,
  deal: Deal,
  milestone: Milestone,
  input: SettleInput,
): Promise<void> {
  if (deal.brandId === caller.id) return;
  if (deal.creatorId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can settle its milestones.");
  if (input.minScore !== undefined)
    throw new AppError("forbidden", "Only the brand may change the minimum score.");
  const window = await reviewWindow(db, deal, milestone);
  if (!window.creatorMaySettle)
    throw new AppError(
      "review_window_open",
      window.endsAt
        ? `The brand has until ${window.endsAt.toISOString()} to review this submission; after that you can settle it yourself.`
        : "There is no submission awaiting the brand's review.",
      { details: { windowEndsAt: window.endsAt?.toISOString() ?? null } },
    );
}

/**
 * What one settle came to, before its answer is written: the single form answers with the
 * milestone's view and the verdict (settleMilestone); a bulk's item with its outcome alone.
 * `verdict` is the one this call paid or rejected on, when it has it in hand.
 */
type Settled = { deal: Deal; milestone: Milestone } & (
  | { outcome: "rejected"; verdict: VerdictJson }
  | { outcome: "paid"; paid: Settlement; verdict?: VerdictJson }
  | { outcome: "submitted"; settlement: Settlement; sent: SettlementJson; verdict?: VerdictJson }
);

export async function settleMilestone(
  db: Db,
  caller: Caller,
  input: SettleInput,
  opts: Parameters<typeof settleOne>[3] = {},
): Promise<SettleResult> {
  const r = await settleOne(db, caller, input, opts);
  const { deal, milestone } = r;
  if (r.outcome === "rejected")
    return {
      outcome: "rejected",
      milestone: await getMilestone(db, caller, milestone.id),
      verdict: r.verdict,
    };
  if (r.outcome === "submitted") {
    const [view, paysOn] = await Promise.all([
      getMilestone(db, caller, milestone.id),
      r.verdict ?? verdictOfSettlement(db, r.settlement),
    ]);
    return {
      outcome: "submitted",
      milestone: view,
      verdict: paysOn,
      settlement: r.sent,
      poll: pollUrl(milestone.id),
    };
  }
  // The response from the rows in hand: the milestone view in one round, with the verdict
  // read alongside only when this call did not create the settlement.
  const [view, paidOn] = await Promise.all([
    milestoneDetailOf(db, deal, milestone.id, r.paid),
    r.verdict ?? verdictOfSettlement(db, r.paid),
  ]);
  return { outcome: "paid", milestone: view, verdict: paidOn, settlement: settlementJson(r.paid) };
}

/** Where a `submitted` settlement is polled: its milestone. */
const pollUrl = (milestoneId: string) => `/api/milestones/${milestoneId}`;

async function settleOne(
  db: Db,
  caller: Caller,
  input: SettleInput,
  /**
   * `waitMs`: how long to wait for the release's receipt (default: requestWaitMs()).
   * `batch`: a bulk settle's ReleaseQueue (lib/settle/batch.ts). `pay` pays a direct
   * settlement this call has just claimed (lease held) instead of a release of its own, and
   * answers as advanceSettlement does; `passed` says this call will not use it (it advances
   * a settlement already under way on its own).
   */
  opts: {
    verifier?: VerifierOptions;
    waitMs?: number;
    batch?: { pay: (claimed: Claimed) => Promise<Settlement>; passed: () => void };
  } = {},
): Promise<Settled> {
  // The milestone, its deal, its settlement, and the decision and verdict on its revision:
  // one statement.
  const row = await findSettleStart(db, caller, input.milestoneId);
  if (!row) throw notFound("Milestone");
  const { deal, milestone } = row;
  let settlement: Settlement | undefined = row.settlement ?? undefined;
  if (!settlement) await assertMaySettle(db, caller, deal, milestone, input);
  else if (deal.brandId !== caller.id && deal.creatorId !== caller.id)
    throw new AppError("forbidden", "Only the deal's parties can settle its milestones.");
  if (input.via === "relay") {
    const status = relayStatus();
    if (!status.configured || !status.supported)
      throw new AppError(
        "not_configured",
        `Relayed settlement is not available: ${status.reason ?? "not configured"}.`,
      );
  }

  let leaseHeld = false;
  let created: Settlement | undefined;
  let verdict: VerdictJson | undefined;
  let estimate: GasEstimate | undefined;
  if (settlement?.status === "confirmed") throw alreadySettled(settlement);
  if (
    !settlement &&
    (milestone.status === "refunded" || !["active", "completed"].includes(deal.status))
  )
    throw new AppError(
      deal.status === "unfunded" ? "not_funded" : "invalid_state",
      milestone.status === "refunded"
        ? "This milestone's money went back to the brand; there is nothing left to pay."
        : `The deal is ${deal.status}; only a deal a creator has taken can be settled.`,
    );
  if (!settlement) {
    if (sentBackForChanges(milestone)) throw changesRequested(milestone);
    if (milestone.status === "pending")
      throw new AppError("no_deliverable", "Nothing has been submitted yet.");
    // The brand upheld the rejection of this revision: that is final for it.
    const decided = row.decision ?? undefined;
    if (decided && !decided.approved)
      return { deal, milestone, outcome: "rejected", verdict: decisionVerdictJson(decided) };
    const verification = await verdictForRevision(
      db,
      milestone,
      deal,
      opts.verifier,
      row.verification,
    );
    // Trust or escalate: a verdict the verifier is not sure enough of neither pays nor
    // rejects on its own; the brand decides (POST /api/milestones/:id/decision). The creator
    // reaches this only after the brand let the review window pass without deciding: the
    // brand's silence accepts the verdict as it is, so a silent brand cannot hold the
    // payment (the same rule as for a certain verdict).
    if (deal.brandId === caller.id) assertSureEnough(deal, verification);
    const minScoreBps =
      input.minScore !== undefined ? scoreToBps(input.minScore) : deal.minScoreBps;
    if (!(verification.approved && verification.scoreBps >= minScoreBps)) {
      await reject(db, milestone, verification, caller.id);
      return { deal, milestone, outcome: "rejected", verdict: verdictJson(verification) };
    }
    const basis = {
      revision: verification.revision,
      scoreBps: verification.scoreBps,
      verdictHash: await ensureRecordHash(db, verification),
    };
    // The release's gas is estimated while the claim runs (it reads the chain only); not for
    // a bulk's item, whose release goes in its batch, nor when this process has releases on
    // their way, which this one will most likely join (releasesBusy).
    estimate =
      input.via === "direct" && !opts.batch && !releasesBusy(db)
        ? estimateRelease(
            { deal, milestone },
            payoutUnits(milestone.amountUnits, basis.scoreBps),
            basis.verdictHash,
          )
        : undefined;
    try {
      settlement = await claim(db, deal, milestone, basis, input.via, { actorId: caller.id });
      created = settlement;
      leaseHeld = true;
      // What verdictOfSettlement would read back: the decision on this revision, if any,
      // else this verdict (the settlement's revision is the verdict's).
      verdict = decided ? decisionVerdictJson(decided) : verdictJson(verification);
    } catch (err) {
      settlement = await claimedMeanwhile(db, milestone.id, err);
    }
  }
  // An approved milestone is never verified again: resume its settlement as recorded. The
  // receipt is waited for within the request's budget; past it, the answer is `submitted`.
  const waitMs = opts.waitMs ?? requestWaitMs();
  let paid: Settlement;
  try {
    const fresh = created && input.via === "direct" ? created : undefined;
    const batched = fresh ? opts.batch : undefined;
    if (!batched) opts.batch?.passed();
    paid = batched
      ? await batched.pay({ settlement: fresh as Settlement, target: { deal, milestone } })
      : fresh
        ? // Paid together with whatever else this process is settling right now
          // (lib/settle/batch.ts): alone, exactly as advanceSettlement would.
          await payClaimed(
            db,
            { settlement: fresh, target: { deal, milestone } },
            { waitUntil: Date.now() + waitMs, estimate },
          ).then((s) => {
            recordReputationAfterResponse(db, s.id);
            return s;
          })
        : await advanceSettlement(db, settlement.id, {
            leaseHeld,
            created,
            target: { deal, milestone },
            estimate,
            waitMs,
            // A concurrent caller that finds the payment done by another answers as any later one.
            alreadyConfirmed: alreadySettled,
          });
  } catch (err) {
    // Sent and not confirmed within the budget — or the node failed after the release was
    // recorded (during the broadcast or the wait): either way it is on its way, and reconcile
    // (or settling again) finishes it with the same signed bytes. 202 with its state.
    const sent = isStillPending(err)
      ? (err.details as { settlement: SettlementJson }).settlement
      : await recordedMeanwhile(db, settlement.id, err);
    if (!sent) throw err;
    return { deal, milestone, outcome: "submitted", settlement, sent, verdict };
  }
  return { deal, milestone, outcome: "paid", paid, verdict };
}

/** One milestone's outcome in a bulk settle. */
export const bulkSettleItem = z.object({
  milestoneId: z.string(),
  outcome: z
    .enum(["paid", "submitted", "rejected", "already_paid", "refused"])
    .describe(
      "paid | submitted (sent, not confirmed within the budget, or the node failed after the transfer was recorded: poll) | rejected (the gate failed) | already_paid | refused (see error: not_found, forbidden, needs_decision, review_window_open, no_deliverable, settlement_in_progress, …)",
    ),
  settlement: settlementSchema.optional(),
  poll: z.string().optional().describe("submitted only: the milestone's URL"),
  error: z
    .object({ code: z.string(), message: z.string() })
    .optional()
    .describe("refused only: what the single form would have answered"),
});
export type BulkSettleItem = z.infer<typeof bulkSettleItem>;
export const bulkSettleResponse = z.object({
  results: z.array(bulkSettleItem).describe("One per milestoneId, in the request's order"),
});
export type BulkSettleResult = z.infer<typeof bulkSettleResponse>;

/** POST /api/settle's answer: the single form's, or a bulk's per-item results. */
export const settleAnswer = z.union([settleResponse, bulkSettleResponse]);

/**
 * A settlement the chain failed under (`err`: chain_unavailable) after its release was
 * recorded or handed to a relayer: its state as it stands; undefined when nothing was
 * recorded (then the chain's refusal is the answer: nothing left the service).
 */
async function recordedMeanwhile(
  db: Db,
  settlementId: string,
  err: unknown,
): Promise<SettlementJson | undefined> {
  if (!(err instanceof AppError && err.code === "chain_unavailable")) return undefined;
  const s = await findSettlement(db, settlementId);
  if (!s || !(s.chainTxId || s.relayTaskId) || !["pending", "submitted"].includes(s.status))
    return undefined;
  return settlementJson(s);
}

/** How many milestones of one bulk settle are verified and claimed at once. */
const BULK_PARALLEL = 4;

/**
 * POST /api/settle with `milestoneIds`: each milestone settled exactly as the single form
 * would (the same caller checks, owner filters, gate, claim and lease: a milestone is paid
 * once whoever else settles it meanwhile), a few claimed at a time, all within one chain
 * budget (requestWaitMs() from the start: a release still unconfirmed then is `submitted`,
 * for reconcile to finish). The direct settlements it creates are paid together, in one
 * releaseBatch transaction per RELEASES_PER_TX (lib/settle/batch.ts), not one each; a
 * settlement found under way is advanced on its own as before. Each gets its own outcome; one
 * refused does not stop the others.
 */
export async function settleMany(
  db: Db,
  caller: Caller,
  input: { milestoneIds: string[]; via: SettlementVia; minScore?: number },
  opts: { verifier?: VerifierOptions } = {},
): Promise<BulkSettleResult> {
  const deadline = Date.now() + requestWaitMs();
  const queue = new ReleaseQueue(db, input.milestoneIds.length, deadline);
  // BULK_PARALLEL items verify and claim at once; an item waiting for its batch gives its
  // place to the next, and leaves the queue (once) when it queued nothing.
  let free = BULK_PARALLEL;
  const waiting: Array<() => void> = [];
  const acquire = async () => {
    if (free > 0) free--;
    else await new Promise<void>((r) => waiting.push(r));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const one = async (milestoneId: string): Promise<BulkSettleItem> => {
    await acquire();
    // Once it is known whether this item queues a release (or on its end), its place goes to
    // the next item; an item that queues nothing leaves the queue.
    let decided = false;
    const decide = (queues: boolean) => {
      if (decided) return;
      decided = true;
      release();
      if (!queues) queue.leave();
    };
    try {
      // The item's outcome alone: no milestone view or verdict is read for it.
      const r = await settleOne(
        db,
        caller,
        { milestoneId, via: input.via, minScore: input.minScore },
        {
          ...opts,
          waitMs: Math.max(0, deadline - Date.now()),
          batch: {
            pay: (claimed) => {
              decide(true);
              return queue.add(claimed);
            },
            passed: () => decide(false),
          },
        },
      ).finally(() => decide(false));
      if (r.outcome === "rejected") return { milestoneId, outcome: "rejected" };
      if (r.outcome === "submitted")
        return {
          milestoneId,
          outcome: "submitted",
          settlement: r.sent,
          poll: pollUrl(milestoneId),
        };
      return { milestoneId, outcome: "paid", settlement: settlementJson(r.paid) };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "already_settled")
        return {
          milestoneId,
          outcome: "already_paid",
          settlement: (err.details as { settlement: SettlementJson }).settlement,
        };
      return { milestoneId, outcome: "refused", error: { code: err.code, message: err.message } };
    }
  };
  return { results: await Promise.all(input.milestoneIds.map(one)) };
}
