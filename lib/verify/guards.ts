import { CERTAIN, UNCERTAIN } from "./confidence";
import type { Deduction, ModelVerdict, Verdict } from "./verdict";

// Applied to every verdict after the model (or the rubric) answers. The model's output
// is as untrusted as the deliverable that may have steered it: the score is bounded, the
// deterministic checks are merged in, and `approved` cannot survive anything missing.

const MAX_REASONING_CHARS = 4_000;
const MAX_MISSING_ITEMS = 50;
const MAX_MISSING_CHARS = 300;

/** A score in [0,1] rounded to 4 decimals; anything not a finite number is 0. */
export function clampScore(score: unknown): number {
  if (typeof score !== "number" || !Number.isFinite(score)) return 0;
  const bounded = Math.min(1, Math.max(0, score));
  return Math.round(bounded * 10_000) / 10_000;
}

/** Trimmed, non-empty, deduplicated case-insensitively, first spelling kept. */
function mergeMissing(...lists: unknown[][]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of lists.flat()) {
    if (typeof item !== "string") continue;
    const text = item.trim().slice(0, MAX_MISSING_CHARS);
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out.slice(0, MAX_MISSING_ITEMS);
}

/**
 * The verdict that may be stored: score clamped, `deterministicMissing` merged into the
 * model's list, and `approved` true only when the model approved and nothing is missing.
 */
export function guardVerdict(
  model: ModelVerdict,
  deterministicMissing: string[],
  /** The verifier's own deductions and confidence; a model's are derived from its answer. */
  explained?: Pick<Verdict, "deductions" | "confidence">,
): Verdict {
  const modelMissing = Array.isArray(model.missing) ? model.missing : [];
  const missing = mergeMissing(deterministicMissing, modelMissing);
  const approved = model.approved === true && missing.length === 0;
  let reasoning = typeof model.reasoning === "string" ? model.reasoning.trim() : "";
  if (!reasoning) reasoning = "No reasoning was given.";
  if (reasoning.length > MAX_REASONING_CHARS)
    reasoning = `${reasoning.slice(0, MAX_REASONING_CHARS - 1)}…`;
  // Say why when the checks overrule the model, so the stored reasoning and flag agree.
  if (model.approved === true && deterministicMissing.length > 0)
    reasoning += ` [Automated checks: not approved — missing ${deterministicMissing.join(", ")}.]`;
  const score = clampScore(model.score);
  return {
    approved,
    score,
    reasoning,
    missing,
    deductions: explained?.deductions ?? modelDeductions(score, missing),
    confidence: explained?.confidence ?? (deterministicMissing.length > 0 ? CERTAIN : UNCERTAIN),
  };
}

/**
 * A model's score is one judgement, not a sum of parts: what it took off is one deduction,
 * naming what it found unmet.
 */
export function modelDeductions(score: number, missing: string[]): Deduction[] {
  const bps = 10_000 - Math.round(score * 10_000);
  if (bps <= 0) return [];
  const unmet = missing.slice(0, 5).join(", ");
  return [
    {
      bps,
      reason: unmet
        ? `the model judged these unmet: ${unmet}${missing.length > 5 ? ", …" : ""}`
        : "the model judged the post short of fully meeting the brief",
    },
  ];
}
