import type { VerifierInput } from "./verdict";

// How sure a verdict is ("trust or escalate", arXiv 2407.18370): settle acts on its own only
// when the verifier's confidence reaches AUTO_SETTLE_CONFIDENCE; below it the milestone waits
// for the brand's decision (409 needs_decision), as after an appeal.
//
// - What rules decide is certain (1): a required hashtag, mention or link missing from the
//   fetched caption, a post by someone else, a score the rubric computes from the post.
// - What no rule decides is not: free-text criteria (judgement-only: "shows the bottle")
//   that the rubric cannot judge or that one model judged with nothing to calibrate it (no
//   log-probabilities are asked for), and a post that could not be read.
// - A panel's confidence on criteria is the share of its models that agree with the majority.
// Without criteria, a verdict rests on what the rules check: it is certain.
//
// The threshold is chosen on the eval (npm run eval): the verdicts at or above it agree with
// the labels on every case there (100 %, target ≥ 98 %).

/** Verdicts at or above this confidence settle on their own; below it the brand decides. */
export const AUTO_SETTLE_CONFIDENCE = 0.9;

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

/** Whether a verdict with this confidence may settle without a person. */
export const autoSettles = (confidence: number, threshold = AUTO_SETTLE_CONFIDENCE) =>
  confidence >= threshold;
