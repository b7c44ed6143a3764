import type { Requirements } from "@/db/schema";
import { type CheckOptions, checkRequirements, type RequirementResult } from "./checks";

// Drafts meet the verifier twice. Before posting, the draft's caption goes through the same
// requirement checks as a fetched post's (checkDraftCaption), so the creator sees "hashtag
// #launch" missing while it is still a draft. After posting, when the brand approved a draft,
// the live post's caption must be the approved one (matchApprovedDraft): what differs is
// listed under the verdict's `missing`, in words.
//
// "The same" is a similarity of at least DRAFT_MATCH_MIN_SIMILARITY (env, default 0.9):
// 1 − (edit distance ÷ the longer caption's length), on the captions normalised as a reader
// sees them (Unicode NFKC, case, runs of white space, invisible format characters). 0.9 lets
// a creator fix a typo, add an emoji or a line break, or change a word in a 100-character
// caption (each a few per cent), while a rewritten or dropped sentence, or a new offer,
// takes it well under 0.9.

export type DraftCaptionCheck = {
  /** Every required hashtag, mention and link (and the disclosure, when required) is in the draft's caption. */
  ready: boolean;
  missing: string[];
  requirements: RequirementResult[];
  /** The brand's free-text criteria: no rule judges them. */
  criteria: string[];
};

/**
 * The milestone's rule checks on a draft's caption (the pre-check's, on text instead of a
 * post), with the deal's disclosure rule when `opts.disclosure` is on (a draft has no
 * platform label yet: only its caption can disclose).
 */
export function checkDraftCaption(
  requirements: Requirements,
  caption: string,
  opts: Pick<CheckOptions, "disclosure"> = {},
): DraftCaptionCheck {
  const { results, missing } = checkRequirements(requirements, caption, opts);
  return {
    ready: missing.length === 0,
    missing,
    requirements: results,
    criteria: requirements.criteria,
  };
}

/** A caption as a reader sees it: NFKC, invisible format characters dropped, case and spacing folded. */
export function normaliseCaption(s: string): string {
  return s
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

/** Levenshtein distance over code points, in two rows (captions are a few thousand characters at most). */
export function editDistance(a: string[], b: string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (ai === b[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, (prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] ?? 0;
}

/** The largest distance table computed (two 5,000-character captions): about 25 ms. */
const MAX_EXACT_CELLS = 25_000_000;

/**
 * 1 − distance ÷ longer length, on normalised captions; 1 for two empty captions. When the
 * table would be larger than MAX_EXACT_CELLS and the lengths alone put the similarity under
 * `floor` (the distance is at least their difference), that bound is returned (`exact:
 * false`) instead: a very long post is never a quadratic cost.
 */
export function captionSimilarity(
  a: string,
  b: string,
  floor = 0,
): { similarity: number; exact: boolean } {
  const x = Array.from(normaliseCaption(a));
  const y = Array.from(normaliseCaption(b));
  const longer = Math.max(x.length, y.length);
  if (longer === 0) return { similarity: 1, exact: true };
  const bound = Math.min(x.length, y.length) / longer;
  if (bound < floor && x.length * y.length > MAX_EXACT_CELLS)
    return { similarity: bound, exact: false };
  return { similarity: 1 - editDistance(x, y) / longer, exact: true };
}

type Run = { op: "removed" | "added"; words: string[] };

/** The word runs only in `from` (removed) or only in `to` (added), by a longest common subsequence. */
export function wordDiff(from: string, to: string): Run[] {
  const a = normaliseCaption(from).split(" ").filter(Boolean);
  const b = normaliseCaption(to).split(" ").filter(Boolean);
  // Words compare without their trailing punctuation: "launch!" and "launch" are one word.
  const key = (w: string) => w.replace(/[.,;:!?…]+$/u, "");
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lcs[i] as Uint32Array)[j] =
        key(a[i] ?? "") === key(b[j] ?? "")
          ? ((lcs[i + 1] as Uint32Array)[j + 1] ?? 0) + 1
          : Math.max((lcs[i + 1] as Uint32Array)[j] ?? 0, (lcs[i] as Uint32Array)[j + 1] ?? 0);
  const runs: Run[] = [];
  const push = (op: Run["op"], w: string) => {
    const last = runs.at(-1);
    if (last?.op === op) last.words.push(w);
    else runs.push({ op, words: [w] });
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && key(a[i] ?? "") === key(b[j] ?? "")) {
      i++;
      j++;
      runs.push({ op: "removed", words: [] }); // a boundary between runs
    } else if (
      j < m &&
      (i >= n || ((lcs[i] as Uint32Array)[j + 1] ?? 0) >= ((lcs[i + 1] as Uint32Array)[j] ?? 0))
    )
      push("added", b[j++] ?? "");
    else push("removed", a[i++] ?? "");
  }
  return runs.filter((r) => r.words.length > 0);
}

/** The words compared at most (beyond them the similarity alone speaks): keeps the diff's table small. */
const MAX_DIFF_WORDS = 1500;
const MAX_RUNS_LISTED = 3;
const MAX_QUOTE_CHARS = 80;

const quote = (words: string[]) => {
  const text = words.join(" ");
  return `"${text.length > MAX_QUOTE_CHARS ? `${text.slice(0, MAX_QUOTE_CHARS - 1)}…` : text}"`;
};

export type DraftMatch = {
  similarity: number;
  matches: boolean;
  /** What differs, in words, for the verdict's `missing`; empty when the post matches. */
  differences: string[];
};

const pct = (x: number) => `${Math.floor(x * 100)} %`;

/** Compares the live post's caption with the approved draft's. */
export function matchApprovedDraft(
  draft: { revision: number; caption: string },
  postCaption: string,
  minSimilarity: number,
): DraftMatch {
  const compared = captionSimilarity(draft.caption, postCaption, minSimilarity);
  const similarity = Math.round(compared.similarity * 10_000) / 10_000;
  if (similarity >= minSimilarity) return { similarity, matches: true, differences: [] };
  const differences = [
    `caption differs from the approved draft (revision ${draft.revision}): ${compared.exact ? "" : "at most "}${pct(similarity)} the same, at least ${pct(minSimilarity)} needed`,
  ];
  const tooLong =
    draft.caption.length > MAX_DIFF_WORDS * 20 ||
    normaliseCaption(draft.caption).split(" ").length > MAX_DIFF_WORDS ||
    normaliseCaption(postCaption).split(" ").length > MAX_DIFF_WORDS;
  if (!tooLong) {
    const runs = wordDiff(draft.caption, postCaption);
    const removed = runs.filter((r) => r.op === "removed");
    const added = runs.filter((r) => r.op === "added");
    for (const r of removed.slice(0, MAX_RUNS_LISTED))
      differences.push(`approved draft text not in the post: ${quote(r.words)}`);
    if (removed.length > MAX_RUNS_LISTED)
      differences.push(
        `and ${removed.length - MAX_RUNS_LISTED} more passages of the draft not in the post`,
      );
    for (const r of added.slice(0, MAX_RUNS_LISTED))
      differences.push(`post text not in the approved draft: ${quote(r.words)}`);
    if (added.length > MAX_RUNS_LISTED)
      differences.push(
        `and ${added.length - MAX_RUNS_LISTED} more passages of the post not in the draft`,
      );
  }
  return { similarity, matches: false, differences };
}
