import { z } from "zod";
import { settlementVias } from "@/db/schema";

export const settleBody = z.object({
  milestoneId: z.uuid("must be a UUID"),
  /** `relayer` is the original interface's name for `relay` (accepted as an alias). */
  via: z
    .enum([...settlementVias, "relayer"])
    .default("direct")
    .transform((v) => (v === "relayer" ? "relay" : v)),
  /** The gate: the verdict must be approved with at least this score (default: the deal's, 0.5). */
  minScore: z.number().min(0).max(1).optional(),
});

const reason = z
  .string()
  .trim()
  .min(3, "Write a reason of at least 3 characters")
  .max(2000, "Keep the reason under 2,000 characters");

/** The brand's decision: approve at a chosen score (0 < score ≤ 1), or uphold the rejection. */
export const decisionBody = z.object({
  approve: z.boolean({ error: "must be true (pay) or false (uphold the rejection)" }),
  score: z
    .number({ error: "must be a number between 0 and 1" })
    .gt(0, "must be more than 0 %")
    .max(1, "must be at most 100 %")
    .optional(),
  reason,
  via: z.enum(settlementVias).default("direct"),
});

export const appealBody = z.object({ reason });

/** The brand's request for changes: what to change, in plain text (the creator reads it). */
export const requestChangesBody = z.object({
  message: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "Write what should change")
    .max(2000, "Keep the message under 2,000 characters"),
});

/** POST /api/milestones/:id/refund: an overdue milestone with nothing delivered, back to the brand. */
export const refundMilestoneBody = z.object({
  reason: z.string().trim().max(2000, "Keep the reason under 2,000 characters").optional(),
  via: z.enum(settlementVias).default("direct"),
});
