import { z } from "zod";
import { settlementVias } from "@/db/schema";

/** `relayer` is the original interface's name for `relay` (accepted as an alias). */
const settleVia = z
  .enum([...settlementVias, "relayer"])
  .default("direct")
  .transform((v) => (v === "relayer" ? "relay" : v));
/** The gate: the verdict must be approved with at least this score (default: the deal's, 0.5). */
const settleMinScore = z.number().min(0).max(1).optional();

export const settleBody = z.object({
  milestoneId: z.uuid("must be a UUID"),
  via: settleVia,
  minScore: settleMinScore,
});

/** The most milestones one bulk settle takes. */
export const BULK_SETTLE_MAX = 100;

/** POST /api/settle's bulk form: up to 100 milestones, each settled as the single form would. */
export const bulkSettleBody = z.object({
  milestoneIds: z
    .array(z.uuid("must be a UUID"))
    .min(1, "name at least one milestone")
    // A refinement rather than .max(): zod's union reports a failed .max() as matching
    // neither form ("Invalid input"), a refinement as this form's own error.
    .refine((ids) => ids.length <= BULK_SETTLE_MAX, {
      message: `at most ${BULK_SETTLE_MAX} milestones per request`,
    })
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
      message: "must not name a milestone twice",
    })
    .meta({ maxItems: BULK_SETTLE_MAX, example: ["0b7f6d1e-3c2a-4f5b-9d8e-1a2b3c4d5e6f"] }),
  via: settleVia,
  minScore: settleMinScore,
});

/** POST /api/settle's body: one milestone (`milestoneId`) or many (`milestoneIds`). */
export const settleRequestBody = z.union([settleBody, bulkSettleBody]);

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
