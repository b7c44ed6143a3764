import { RULE_CHECK } from "./labels";
import type { VerifierInput } from "./verdict";

// How sure a verdict is ("trust or escalate", arXiv 2407.18370): settle acts on its own only
// when the verifier's confidence reaches the deal's auto-settle threshold; below it the
// milestone waits for the brand's decision (409 needs_decision), as after an appeal.
//
// - What rules decide is certain (1): a required hashtag, mention or link missing from the
//   fetched caption, a post by someone else, a score the rubric computes from the post.
// - What no rule decides is not: free-text criteria (judgement-only: "shows the bottle")
//   that the rubric cannot judge or that one model judged with nothing to calibrate it, and a
//   post that could not be read.
// - One model's confidence on criteria is its own probability for its judgement (token
//   log-probabilities, lib/verify/logprobs.ts) calibrated on the eval (lib/verify/
//   calibration.ts, AI_CALIBRATION); without a calibration for the model it is UNCERTAIN.
// - A panel's confidence on criteria is the share of its models that agree with the majority.
// Without criteria, a verdict rests on what the rules check: it is certain.
//
// The threshold is each deal's (`autoSettleConfidence`, 50–100 %). Its default is chosen on
// the eval (npm run eval): the verdicts at or above it agree with the labels on every case
// there (100 %, target ≥ 98 %). A brand may ask for more (100 %: only what rules decide
// settles on its own) or accept less, down to 50 %: a verdict the verifier cannot tell from a
// coin toss (one model's judgement with nothing to calibrate it). Lower would let a verdict
// settle that the verifier thinks more likely wrong than right.

/** The default threshold: verdicts at or above it settle on their own; below, the brand decides. */
export const AUTO_SETTLE_CONFIDENCE = 0.9;
/** The bounds of a deal's threshold (see above). */
export const MIN_AUTO_SETTLE_CONFIDENCE = 0.5;
export const MAX_AUTO_SETTLE_CONFIDENCE = 1;

export const CERTAIN = 1;
/** Nothing to go on either way: a coin toss. */
export const UNCERTAIN = 0.5;

/**
 * The confidence of a verdict whose rule checks found `missing` and whose judgement part
 * (criteria, or the model's view) has confidence `judged`: a rule-based rejection is certain
 * whatever the judgement says; otherwise the verdict is only as sure as its judgement, and
 * certain when there was nothing to judge.
 */
export function verdictConfidence(
  input: Pick<VerifierInput, "requirements" | "evidence">,
  missing: string[],
  judged: number,
): number {
  if (input.evidence.status !== "ok") return 0;
  if (missing.length > 0) return CERTAIN;
  return Math.min(CERTAIN, Math.max(0, judged));
}

type Judged = { confidence: number; verifier: string };

/**
 * A rule check unsure of its verdict: nobody judged part of it (free-text criteria, a post
 * that could not be read). That never settles on its own, whatever the deal's threshold, so
 * a criterion is never silently skipped: a model judges it, or the brand does.
 */
export const unjudged = (verdict: Judged) =>
  verdict.verifier === RULE_CHECK && verdict.confidence < CERTAIN;

/** Whether a verdict may settle without a person under a deal's threshold. */
export const autoSettles = (verdict: Judged, threshold = AUTO_SETTLE_CONFIDENCE) =>
  !unjudged(verdict) && verdict.confidence >= threshold;
