import type { ModelVerdict, Verdict } from "./verdict";

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
export function guardVerdict(model: ModelVerdict, deterministicMissing: string[]): Verdict {
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
  return { approved, score: clampScore(model.score), reasoning, missing };
}
