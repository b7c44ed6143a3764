import { z } from "zod";
import type { Requirements, VerdictDeduction } from "@/db/schema";
import type { Evidence } from "./evidence/types";

// The verdict the model must answer with. Kept plain for providers' structured-output
// modes (every field required, no numeric bounds, no optionals): bounds are enforced in
// code by the guards, which never trust the model's numbers or its `approved`.

export const verdictSchema = z.object({
  approved: z
    .boolean()
    .describe("true only if the deliverable meets every requirement and every criterion"),
  score: z
    .number()
    .describe(
      "How well the deliverable meets the requirements overall: a number from 0 (not at all) to 1 (fully)",
    ),
  reasoning: z
    .string()
    .describe("A few sentences explaining the verdict, naming what was met and what was not"),
  missing: z
    .array(z.string())
    .describe(
      'Each requirement or criterion that is not met, as a short phrase (e.g. "hashtag #ad"); empty when nothing is missing',
    ),
});

/** What the model said: untrusted until it has been through `guardVerdict`. */
export type ModelVerdict = z.infer<typeof verdictSchema>;

/** One share taken off the score (basis points of 10000) and why, in one line. */
export type Deduction = VerdictDeduction;

/** A verdict after the guards: score in [0,1] with 4 decimals, approved only if nothing is missing. */
export type Verdict = {
  approved: boolean;
  score: number;
  reasoning: string;
  missing: string[];
  /** What took the score below 100 %, each with its share: from the verifier's own output. */
  deductions: Deduction[];
  /**
   * How sure the verifier is of this verdict, in [0,1] (lib/verify/confidence.ts): 1 for
   * what rules decide, less for judgement. Below the auto-settle threshold a person decides.
   */
  confidence: number;
};

/** The deliverable as submitted: the creator's claim about their post, never evidence. */
export type DeliverableContent = { url: string; text: string; note: string };

/** Everything a verifier (model or rubric) sees about one deliverable revision. */
export type VerifierInput = {
  requirements: Requirements;
  /** What the creator wrote: passed to the model as a labelled claim, never checked as fact. */
  deliverable: DeliverableContent;
  /** The post as fetched from its platform: what is judged. */
  evidence: Evidence;
  /** The creator's declared handle on the evidence's platform (profile), null when none. */
  declaredHandle: string | null;
  /** Whether the creator proved that handle is theirs (lib/profile/verify-handle.ts). */
  handleVerified: boolean;
  dealTitle: string;
  milestoneTitle: string;
  /**
   * The deal's FTC disclosure rule is on: the post must carry #ad, #sponsored or
   * #paidpartnership within its first 125 characters, or the platform's label (checks.ts).
   */
  disclosureRequired: boolean;
  /** The deal's platform ("instagram", "tiktok", …, "other"), when known. */
  platform?: string;
  /**
   * The latest draft the brand approved for this milestone, when there is one: the post's
   * caption must match it (lib/verify/draft-match.ts), at `minSimilarity`.
   */
  approvedDraft?: { revision: number; caption: string; minSimilarity: number } | null;
};
