import { z } from "zod";
import {
  dealEventTypes,
  dealStatuses,
  milestoneStatuses,
  settlementVias,
  txStatuses,
} from "@/db/schema";
import type { DealPage } from "@/lib/deals/deals";
import type { MilestoneDetailJson } from "@/lib/deals/milestones";
import type {
  DealJson,
  DeliverableJson,
  EscrowJson,
  MilestoneJson,
  SettlementJson,
  VerdictJson,
} from "@/lib/deals/serialize";
import type { DealEventJson } from "@/lib/events/events";
import type { DecideResult } from "@/lib/settle/decisions";
import type { AppealJson, DealDetailJson, DecisionJson, ReviewJson } from "@/lib/settle/review";
import type { SettleResult } from "@/lib/settle/settle";

// The success responses of the main endpoints as zod schemas: documented in the OpenAPI
// reference (lib/openapi.ts, `responseSchema`) and checked against real answers of the
// route handlers by test/api/responses.test.ts, so the reference cannot drift from the code.
// The JSON itself is built in lib/deals/serialize.ts, lib/settle/review.ts and
// lib/events/events.ts; the type checks at the end of this file keep each schema's
// inferred type assignable to the TypeScript type the code produces.

const iso = z.iso.datetime();
const decimal = z
  .string()
  .regex(/^\d+\.\d{6}$/)
  .describe("USDC, a decimal string with 6 places");
const score = z.number().min(0).max(1);

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "Error", description: "The contract's error envelope" });

export const requirementsJsonSchema = z
  .object({
    hashtags: z.array(z.string()),
    mentions: z.array(z.string()),
    links: z.array(z.string()),
    criteria: z.array(z.string()),
  })
  .meta({ id: "Requirements" });

export const deliverableSchema = z
  .object({
    url: z.string(),
    text: z.string(),
    note: z.string(),
    revision: z.number().int().positive(),
    submittedAt: iso,
  })
  .meta({ id: "Deliverable" });

export const verdictSchema = z
  .object({
    approved: z.boolean(),
    score,
    reasoning: z.string(),
    missing: z.array(z.string()),
    model: z.string(),
    revision: z.number().int().positive(),
    verifiedAt: iso,
  })
  .meta({ id: "Verdict" });

export const settlementSchema = z
  .object({
    id: z.uuid(),
    milestoneId: z.uuid(),
    via: z.enum(settlementVias),
    chainId: z.number().int(),
    amount: decimal.describe("Paid to the creator by the escrow release"),
    refund: decimal.describe(
      "The rest of the milestone, returned to the brand by the same release",
    ),
    verdictHash: z.string().nullable().describe("The verdict (or decision) record's hash on-chain"),
    scoreUsed: score,
    recipient: z.string(),
    txHash: z.string().nullable(),
    status: z.enum(txStatuses),
    explorerUrl: z.string().nullable(),
    reputationTxHash: z.string().nullable(),
    inFlight: z.boolean().describe("A settle call or reconcile is advancing the payment right now"),
    error: z.string().nullable().describe("Why the last attempt failed (a failed settlement)"),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "Settlement" });

export const escrowSchema = z
  .object({
    funded: z.boolean(),
    budget: decimal,
    locked: decimal.describe("Still held by the escrow"),
    released: decimal.describe("Paid to the creator"),
    refunded: decimal.describe("Returned to the brand"),
    deadline: iso,
    refundableAt: iso.describe("After this instant unreleased milestones are refundable"),
    chainId: z.number().int().nullable(),
    address: z.string().nullable(),
    brandWallet: z.string().nullable(),
    creatorWallet: z.string().nullable(),
    creatorAssigned: z.boolean(),
    fundingTxHash: z.string().nullable(),
    fundingExplorerUrl: z.string().nullable(),
  })
  .meta({ id: "Escrow" });

export const milestoneSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    title: z.string(),
    amount: z.number().describe("USDC"),
    requirements: requirementsJsonSchema,
    dueAt: iso.nullable(),
    status: z.enum(milestoneStatuses),
    deliverable: deliverableSchema.nullable().describe("The current revision's deliverable"),
    verdict: verdictSchema.nullable().describe("The verdict on the current revision"),
    settlement: settlementSchema.nullable(),
    refundTxHash: z.string().nullable(),
  })
  .meta({ id: "Milestone" });

export const appealSchema = z
  .object({
    id: z.uuid(),
    revision: z.number().int().positive(),
    reason: z.string(),
    status: z.enum(["open", "decided"]),
    createdAt: iso,
    decidedAt: iso.nullable(),
  })
  .meta({ id: "Appeal" });

export const decisionSchema = z
  .object({
    id: z.uuid(),
    revision: z.number().int().positive(),
    approved: z.boolean(),
    score,
    reason: z.string(),
    decidedBy: z.object({ id: z.uuid(), name: z.string() }),
    appealId: z.uuid().nullable(),
    recordHash: z.string().describe("keccak256 of the canonical decision record"),
    decidedAt: iso,
  })
  .meta({ id: "Decision" });

export const reviewSchema = z
  .object({
    windowEndsAt: iso.nullable().describe("When the brand's review window ends (null: none)"),
    creatorMaySettle: z.boolean(),
    overdue: z.boolean(),
    appeal: appealSchema.nullable(),
    decision: decisionSchema.nullable(),
  })
  .meta({ id: "Review" });

export const milestoneWithReviewSchema = milestoneSchema
  .extend({ review: reviewSchema })
  .meta({ id: "MilestoneWithReview" });

export const milestoneDetailSchema = milestoneWithReviewSchema
  .extend({
    dealTitle: z.string(),
    history: z.object({
      deliverables: z.array(deliverableSchema),
      verdicts: z.array(verdictSchema),
    }),
  })
  .meta({ id: "MilestoneDetail" });

const partyBase = z.object({
  id: z.uuid(),
  name: z.string().describe("The display name, else the e-mail"),
  email: z.string().describe("Deprecated: kept for older clients"),
});

export const dealSchema = z
  .object({
    id: z.uuid(),
    brandId: z.uuid(),
    creatorId: z.uuid().nullable(),
    title: z.string(),
    description: z.string(),
    platform: z.string(),
    budget: z.number().describe("USDC"),
    status: z.enum(dealStatuses),
    minScore: score,
    inviteEmail: z.string().nullable(),
    paid: decimal.describe("Paid out so far (confirmed settlements)"),
    escrow: escrowSchema,
    brand: partyBase.nullable(),
    creator: partyBase.extend({ walletAddress: z.string().nullable() }).nullable(),
    createdAt: iso,
    milestones: z.array(milestoneSchema),
  })
  .meta({ id: "Deal" });

export const dealDetailSchema = dealSchema
  .extend({
    reviewWindowSeconds: z.number().int().nonnegative(),
    milestones: z.array(milestoneWithReviewSchema),
  })
  .meta({ id: "DealDetail" });

export const dealEventSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(dealEventTypes),
    dealId: z.uuid(),
    milestoneId: z.uuid().nullable(),
    actor: z.object({ id: z.uuid() }).nullable(),
    data: z.record(z.string(), z.unknown()),
    createdAt: iso,
  })
  .meta({ id: "DealEvent" });

// ── Response bodies ───────────────────────────────────────────────────────────────────

const nextCursor = z.string().nullable().describe("Pass as ?cursor= for the next page");

export const dealPageResponse = z.object({ deals: z.array(dealSchema), nextCursor });
export const dealResponse = z.object({ deal: dealSchema });
export const dealDetailResponse = z.object({ deal: dealDetailSchema });
export const milestoneDetailResponse = z.object({ milestone: milestoneDetailSchema });
export const verdictResponse = verdictSchema;
export const settleResponse = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("paid"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
    settlement: settlementSchema,
  }),
  z.object({
    outcome: z.literal("rejected"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
  }),
]);
export const decisionResponse = z.object({
  milestone: milestoneDetailSchema,
  settlement: settlementSchema.nullable(),
});
export const appealResponse = z.object({ appeal: appealSchema, milestone: milestoneDetailSchema });
export const dealEventPageResponse = z.object({ events: z.array(dealEventSchema), nextCursor });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

// ── The schemas against the code's types ────────────────────────────────────────────
// Anything a schema accepts is a value of the type the code builds (a schema may be
// narrower: enums where the type says string). A field added to a type and not to its
// schema fails here (required keys), or in test/api/responses.test.ts (strict parse).

type Assignable<A extends B, B> = A;
export type SchemaChecks = [
  Assignable<z.infer<typeof deliverableSchema>, DeliverableJson>,
  Assignable<z.infer<typeof verdictSchema>, VerdictJson>,
  Assignable<z.infer<typeof settlementSchema>, SettlementJson>,
  Assignable<z.infer<typeof escrowSchema>, EscrowJson>,
  Assignable<z.infer<typeof milestoneSchema>, MilestoneJson>,
  Assignable<z.infer<typeof appealSchema>, AppealJson>,
  Assignable<z.infer<typeof decisionSchema>, DecisionJson>,
  Assignable<z.infer<typeof reviewSchema>, ReviewJson>,
  Assignable<z.infer<typeof milestoneDetailSchema>, MilestoneDetailJson>,
  Assignable<z.infer<typeof dealSchema>, DealJson>,
  Assignable<z.infer<typeof dealDetailSchema>, DealDetailJson>,
  Assignable<z.infer<typeof dealEventSchema>, DealEventJson>,
  Assignable<z.infer<typeof dealPageResponse>, DealPage>,
  Assignable<z.infer<typeof settleResponse>, SettleResult>,
  Assignable<z.infer<typeof decisionResponse>, DecideResult>,
];
