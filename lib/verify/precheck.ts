import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { findVisibleMilestone } from "@/db/queries/deals";
import type { User } from "@/db/schema";
import { deliverableBody } from "@/lib/deals/schemas";
import { AppError, notFound } from "@/lib/errors";
import { bpsToScore, scoreToBps } from "@/lib/money";
import { reserveAttempt, type Window } from "@/lib/rate-limit";
import { deterministicCheck, type RequirementResult } from "./checks";
import { type EvidenceOptions, fetchEvidence } from "./evidence";
import { rubricVerdict } from "./rubric";
import { verifierInput } from "./verify-milestone";

// The creator's pre-check (POST /api/milestones/:id/precheck): before submitting, the post
// at a URL is read exactly as the verifier would read it and put through the rule checks —
// hashtags, mentions, links, the author, the rubric's score — so the creator sees what is
// missing while it can still be fixed. Nothing is stored (no verdict, no evidence, no
// deliverable) and no money moves; the verdict that counts is still the one on the submitted
// revision. Each call fetches a post from outside, so it is rate-limited per creator.

/** The post's URL, validated as a deliverable's is. */
export const precheckBody = deliverableBody.pick({ url: true });

/** Ten pre-checks a minute per creator: enough to fix and retry, not enough to hammer a platform. */
export const PRECHECK_WINDOW = { limit: 10, windowMs: 60_000 };

export const precheckResponse = z
  .object({
    ready: z
      .boolean()
      .describe("Every rule check passes and the rule score reaches the deal's minimum"),
    missing: z
      .array(z.string())
      .describe('What the verifier would find missing, in its words ("hashtag #ad")'),
    requirements: z
      .array(
        z.object({
          kind: z.enum(["hashtag", "mention", "link", "disclosure"]),
          value: z.string(),
          found: z.boolean(),
        }),
      )
      .describe(
        "Each required hashtag, mention and link, and whether the post's caption has it; last, when the deal requires disclosure, `disclosure`: #ad, #sponsored or #paidpartnership within the first 125 characters, or the platform's paid-partnership label",
      ),
    score: z.number().min(0).max(1).describe("The rule check's score"),
    deductions: z
      .array(z.object({ points: z.number().min(0).max(1), reason: z.string() }))
      .describe("What the rule check would take off, one line each"),
    criteria: z
      .array(z.string())
      .describe("The brand's free-text criteria: no rule judges them; the brand or a model will"),
    minScore: z.number().min(0).max(1).describe("The deal's minimum score"),
    post: z.object({
      status: z.string().describe("ok | deleted | unreachable | blocked | unsupported"),
      platform: z.string(),
      author: z.string().nullable(),
      caption: z.string().nullable(),
    }),
  })
  .meta({ id: "Precheck" });

export type PrecheckJson = z.infer<typeof precheckResponse>;

type Caller = Pick<User, "id" | "email">;

export async function precheckMilestone(
  db: DbOrTx,
  caller: Caller,
  milestoneId: string,
  url: string,
  opts: { evidence?: EvidenceOptions } = {},
): Promise<PrecheckJson> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  if (!row || (row.deal.brandId !== caller.id && row.deal.creatorId !== caller.id))
    throw notFound("Milestone");
  const { deal, milestone } = row;
  if (deal.creatorId !== caller.id)
    throw new AppError("forbidden", "Only the deal's creator can pre-check a post for it.");
  if (deal.status !== "active")
    throw new AppError("invalid_state", `The deal is ${deal.status}; it takes no deliverables.`);
  const window: Window = { bucket: `precheck:${caller.id}`, ...PRECHECK_WINDOW };
  await reserveAttempt(db, window);

  // No transaction is open: the post is read from its platform, as the verifier reads it.
  const evidence = await fetchEvidence(url, opts.evidence);
  const input = await verifierInput(db, deal, milestone, { url, text: "", note: "" }, evidence);
  const { results, missing } = deterministicCheck(input);
  const rubric = rubricVerdict(input);
  const scoreBps = scoreToBps(rubric.score);
  const platform = evidence.status === "ok" ? evidence.record.platform : evidence.platform;
  return {
    ready: missing.length === 0 && rubric.approved && scoreBps >= deal.minScoreBps,
    missing,
    requirements: results.map((r) => ({ kind: r.kind, value: r.value, found: r.found })),
    score: rubric.score,
    deductions: rubric.deductions.map((d) => ({ points: bpsToScore(d.bps), reason: d.reason })),
    criteria: milestone.requirements.criteria,
    minScore: bpsToScore(deal.minScoreBps),
    post:
      evidence.status === "ok"
        ? {
            status: "ok",
            platform,
            author: evidence.record.authorHandle,
            caption: evidence.record.caption,
          }
        : { status: evidence.status, platform, author: null, caption: null },
  };
}
