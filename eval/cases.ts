import { readFileSync } from "node:fs";
import path from "node:path";
import { keccak256, toBytes } from "viem";
import { z } from "zod";
import { evidenceContentHash } from "@/lib/verify/evidence";
import type { Evidence } from "@/lib/verify/evidence/types";
import type { VerifierInput } from "@/lib/verify/verdict";
import { generatedCases } from "./generate";
import { judgementCases } from "./judgement";

// The labelled eval cases (eval/cases.json): the post as fetched, what the creator typed,
// the handle they declared, and the expected verdict.

const requirements = z.object({
  hashtags: z.array(z.string()),
  mentions: z.array(z.string()),
  links: z.array(z.string()),
  criteria: z.array(z.string()),
});

const platform = z.enum(["youtube", "tiktok", "x", "instagram", "sandbox", "web"]);

const post = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("ok"),
    platform,
    url: z.string(),
    author: z.string().nullable(),
    caption: z.string(),
    mediaType: z.string().nullable().default(null),
    /** The platform shows its paid-partnership label on the post. */
    paidPartnership: z.boolean().default(false),
  }),
  z.object({
    status: z.enum(["deleted", "unreachable", "blocked", "unsupported"]),
    platform,
    url: z.string(),
    error: z.string(),
  }),
]);

export const evalCase = z.object({
  id: z.string(),
  category: z.string(),
  why: z.string().default(""),
  /** The right answer follows from hashtags, mentions, links, author and evidence alone. */
  deterministic: z.boolean(),
  /** A prompt-injection attempt whose honest verdict is a rejection. */
  attack: z.boolean(),
  deal: z.object({
    title: z.string(),
    milestone: z.string(),
    platform: z.string(),
    /**
     * The deal's disclosure rule (#ad within the first 125 characters). Off unless a case
     * says so: the hand-written cases judge deals made before the rule.
     */
    disclosure: z.boolean().default(false),
  }),
  requirements,
  post,
  declaredHandle: z.string().nullable(),
  /**
   * The brand approved a draft of the post (issue 24, item 1): the live caption must match it
   * (lib/verify/draft-match.ts, at DRAFT_MATCH_MIN_SIMILARITY's default). None unless a case
   * says so.
   */
  approvedDraft: z
    .object({ revision: z.number().int(), caption: z.string() })
    .nullable()
    .optional(),
  claim: z.object({ url: z.string(), text: z.string(), note: z.string() }),
  expected: z.object({
    approved: z.boolean(),
    /** Inclusive [min, max] the score must fall in, where it matters. */
    score: z.tuple([z.number(), z.number()]).optional(),
  }),
});
export type EvalCase = z.infer<typeof evalCase>;

export const CASES_FILE = path.join(import.meta.dirname, "cases.json");

/**
 * The hand-written cases (eval/cases.json), then the generated ones: rules (eval/generate.ts)
 * and judgement (eval/judgement.ts).
 */
export function loadCases(file = CASES_FILE): EvalCase[] {
  const doc = JSON.parse(readFileSync(file, "utf8")) as { cases: unknown };
  const cases = [...z.array(evalCase).parse(doc.cases), ...generatedCases(), ...judgementCases()];
  const ids = new Set(cases.map((c) => c.id));
  if (ids.size !== cases.length) throw new Error("eval case ids must be unique");
  return cases;
}

/**
 * The held-out split: fixed by this seed, about 30 % of the cases, chosen by a hash of the
 * case id. Rules, prompts and the auto-settle threshold are tuned on the rest ("tune") and
 * only measured on these; never change the seed to make a number look better.
 */
export const SPLIT_SEED = "milestone-eval-2026-11";
export type Split = "tune" | "held-out";

export function splitOf(c: Pick<EvalCase, "id">): Split {
  const h = keccak256(toBytes(`${SPLIT_SEED}:${c.id}`));
  return Number.parseInt(h.slice(2, 6), 16) % 100 < 30 ? "held-out" : "tune";
}

/** The similarity a live caption needs to an approved draft: DRAFT_MATCH_MIN_SIMILARITY's default. */
export const DRAFT_MIN_SIMILARITY = 0.9;

const FETCHED_AT = "2026-11-22T12:00:00.000Z";

function evidenceOf(c: EvalCase): Evidence {
  const p = c.post;
  if (p.status !== "ok")
    return {
      status: p.status,
      platform: p.platform,
      url: p.url,
      error: p.error,
      fetchedAt: FETCHED_AT,
      contentHash: evidenceContentHash({ platform: p.platform, url: p.url, status: p.status }),
    };
  const content = {
    platform: p.platform,
    url: p.url,
    canonicalUrl: p.url,
    authorHandle: p.author?.toLowerCase() ?? null,
    caption: p.caption,
    mediaType: p.mediaType,
    thumbnailUrl: null,
    publishedAt: null,
    ...(p.paidPartnership ? { paidPartnership: true as const } : {}),
  };
  return {
    status: "ok",
    record: { ...content, fetchedAt: FETCHED_AT },
    contentHash: evidenceContentHash(content),
  };
}

/** What the verifier is given for a case: exactly what verify-milestone would pass. */
export function inputOf(c: EvalCase): VerifierInput {
  return {
    requirements: c.requirements,
    deliverable: c.claim,
    evidence: evidenceOf(c),
    declaredHandle: c.declaredHandle,
    // The cases judge posts, not accounts: a declared handle is taken as proved.
    handleVerified: true,
    dealTitle: c.deal.title,
    milestoneTitle: c.deal.milestone,
    disclosureRequired: c.deal.disclosure,
    platform: c.deal.platform,
    approvedDraft: c.approvedDraft
      ? { ...c.approvedDraft, minSimilarity: DRAFT_MIN_SIMILARITY }
      : null,
  };
}
