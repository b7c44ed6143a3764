import { getAddress } from "viem";
import { z } from "zod";
import type { DealDetails } from "@/db/queries/deals";
import {
  type ChangeRequest,
  type Deal,
  type Deliverable,
  dealStatuses,
  type Milestone,
  milestoneStatuses,
  type Settlement,
  settlementVias,
  txStatuses,
  type Verification,
} from "@/db/schema";
import { decimal, iso, metadataJson, score } from "@/lib/api/fields";
import { explorerTxUrl } from "@/lib/chain/explorer";
import { GRACE_PERIOD_SECONDS } from "@/lib/escrow/onchain";
import { bpsToScore, unitsToDecimal, unitsToNumber } from "@/lib/money";
import { verifierLabel } from "@/lib/verify/labels";

// The JSON shapes of the contract, as zod schemas: one definition per shape. The types the
// serialisers below return are inferred from them (z.infer), the API reference documents
// them (lib/openapi.ts) and test/api/responses.test.ts parses real answers with them, so the
// code, the reference and the client's generated types cannot drift apart.

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
export type DeliverableJson = z.infer<typeof deliverableSchema>;

const deductionSchema = z.object({
  points: z.number().min(0).max(1).describe("The share taken off the score (0.1 = 10 %)"),
  reason: z.string(),
});
/** One share taken off a verdict's score (0.1 = 10 %) and why. */
export type DeductionJson = z.infer<typeof deductionSchema>;

export const verdictSchema = z
  .object({
    approved: z.boolean(),
    score,
    reasoning: z.string(),
    missing: z.array(z.string()),
    model: z.string(),
    verifier: z
      .string()
      .describe(
        'Who judged: "Rule check", "AI review (model)", "Panel of N models", "Brand decision"',
      ),
    deductions: z.array(deductionSchema).describe("What took the score below 100 %, one line each"),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe("How sure the verifier is; below the auto-settle threshold the brand decides"),
    revision: z.number().int().positive(),
    verifiedAt: iso,
  })
  .meta({ id: "Verdict" });
export type VerdictJson = z.infer<typeof verdictSchema>;

/**
 * `inFlight`: someone (a settle call or reconcile) is advancing the payment right now. A
 * `pending` or `submitted` settlement nobody is advancing is delayed: reconcile retries it,
 * and settling again resumes it.
 */
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
    logIndex: z
      .number()
      .int()
      .nullable()
      .describe(
        "The escrow's Released event for this milestone in txHash's receipt: one transaction may pay several settlements",
      ),
    status: z.enum(txStatuses),
    explorerUrl: z.string().nullable(),
    reputationTxHash: z.string().nullable(),
    inFlight: z.boolean().describe("A settle call or reconcile is advancing the payment right now"),
    error: z.string().nullable().describe("Why the last attempt failed (a failed settlement)"),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "Settlement" });
export type SettlementJson = z.infer<typeof settlementSchema>;

/** `refundTo`: the refund address the brand named for a deposit that funded the deal, else the funding wallet. */
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
    refundTo: z.string().nullable(),
    creatorWallet: z.string().nullable(),
    creatorAssigned: z.boolean(),
    fundingTxHash: z.string().nullable(),
    fundingExplorerUrl: z.string().nullable(),
  })
  .meta({ id: "Escrow" });
/** The deal's money in the escrow (decimal strings, 6 places). */
export type EscrowJson = z.infer<typeof escrowSchema>;

/** The brand sent a submitted revision back to the creator with this message. */
export const changeRequestSchema = z
  .object({
    id: z.uuid(),
    revision: z
      .number()
      .int()
      .positive()
      .describe("The revision sent back; the creator's next submission is the next one"),
    message: z.string().describe("What the brand asks to change (plain text)"),
    requestedAt: iso,
  })
  .meta({ id: "ChangeRequest" });
export type ChangeRequestJson = z.infer<typeof changeRequestSchema>;

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
    changeRequest: changeRequestSchema
      .nullable()
      .describe(
        "Set while the milestone is pending because the brand asked for changes to its last submission (its deliverable is that revision; its verdict is null)",
      ),
    refundTxHash: z.string().nullable(),
    metadata: metadataJson,
  })
  .meta({ id: "Milestone" });
export type MilestoneJson = z.infer<typeof milestoneSchema>;

const partyBase = z.object({
  id: z.uuid(),
  name: z.string().describe("The display name, else the e-mail"),
  email: z.string().describe("Deprecated: kept for older clients"),
});

export const disclosureSchema = z
  .object({
    required: z
      .boolean()
      .describe(
        "Every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label",
      ),
    reason: z
      .string()
      .nullable()
      .describe("Why the brand turned the rule off; null while it is on"),
  })
  .describe("The deal's FTC disclosure rule: on by default, off only with a reason");
export type DisclosureJson = z.infer<typeof disclosureSchema>;

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
    autoSettleConfidence: z
      .number()
      .min(0.5)
      .max(1)
      .describe(
        "The confidence a verdict needs to settle on its own; below it POST /api/settle answers 409 needs_decision and the brand decides",
      ),
    termsVersion: z
      .number()
      .int()
      .describe("Goes up with each edit of the terms; pass it to accept to take this version"),
    disclosure: disclosureSchema,
    inviteEmail: z.string().nullable(),
    paid: decimal.describe("Paid out so far (confirmed settlements)"),
    escrow: escrowSchema,
    brand: partyBase.nullable(),
    creator: partyBase.extend({ walletAddress: z.string().nullable() }).nullable(),
    metadata: metadataJson,
    createdAt: iso,
    milestones: z.array(milestoneSchema),
  })
  .meta({ id: "Deal" });
export type DealJson = z.infer<typeof dealSchema>;

/** `{ deal }`: what creating, editing, taking, funding, cancelling and refunding a deal answer. */
export const dealResponse = z.object({ deal: dealSchema });

/**
 * POST /api/deals/:id/funding/authorization: `{ deal }`, or 202 with the relayed funding
 * sent and not confirmed within CHAIN_BUDGET_SECONDS (the deal still unfunded): reconcile
 * opens the deal once the escrow holds the money, and announces it (the funded event).
 */
export const fundingAuthorizationResponse = dealResponse.extend({
  funding: z
    .object({
      status: z.literal("submitted"),
      txHash: z
        .string()
        .regex(/^0x[0-9a-f]{64}$/)
        .nullable()
        .describe("The relayer's transaction (null when an external relayer holds it)"),
    })
    .optional()
    .describe("202 only: the relayed funding, sent and not yet confirmed"),
  poll: z
    .string()
    .optional()
    .describe(
      "202 only: the funding is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; the deal's URL, whose status turns open",
    ),
});
export type FundingAuthorizationResult = z.infer<typeof fundingAuthorizationResponse>;

/** The deal's disclosure rule as the API shows it. */
export const disclosureJson = (deal: Deal): DisclosureJson => ({
  required: deal.disclosureRequired,
  reason: deal.disclosureRequired ? null : deal.disclosureOffReason,
});

export function escrowJson(
  deal: Deal,
  ms: Milestone[],
  st: Settlement[],
  refundTo: string | null = deal.brandWallet,
): EscrowJson {
  const confirmed = st.filter((s) => s.status === "confirmed");
  const released = confirmed.reduce((sum, s) => sum + s.amountUnits, 0n);
  const refunded =
    confirmed.reduce((sum, s) => sum + s.refundUnits, 0n) +
    ms
      // refunded by the escrow itself (cancel, expiry); an overdue milestone's refund is a
      // release, already counted in its settlement's refund above
      .filter((m) => m.status === "refunded" && !confirmed.some((s) => s.milestoneId === m.id))
      .reduce((sum, m) => sum + m.amountUnits, 0n);
  const funded = deal.fundedAt !== null;
  return {
    funded,
    budget: unitsToDecimal(deal.budgetUnits),
    locked: unitsToDecimal(funded ? deal.budgetUnits - released - refunded : 0n),
    released: unitsToDecimal(released),
    refunded: unitsToDecimal(refunded),
    deadline: deal.deadlineAt.toISOString(),
    refundableAt: new Date(
      deal.deadlineAt.getTime() + Number(GRACE_PERIOD_SECONDS) * 1000,
    ).toISOString(),
    chainId: deal.escrowChainId,
    address: deal.escrowAddress,
    brandWallet: deal.brandWallet,
    refundTo: refundTo ? getAddress(refundTo) : null,
    creatorWallet: deal.creatorWallet,
    creatorAssigned: deal.assignedAt !== null,
    fundingTxHash: deal.fundingTxHash,
    fundingExplorerUrl:
      deal.fundingTxHash && deal.escrowChainId
        ? explorerTxUrl(deal.escrowChainId, deal.fundingTxHash)
        : null,
  };
}

export function deliverableJson(d: Deliverable): DeliverableJson {
  return {
    url: d.url,
    text: d.text,
    note: d.note,
    revision: d.revision,
    submittedAt: d.submittedAt.toISOString(),
  };
}

export function verdictJson(v: Verification): VerdictJson {
  return {
    approved: v.approved,
    score: bpsToScore(v.scoreBps),
    reasoning: v.reasoning,
    missing: v.missing,
    model: v.model,
    verifier: v.verifier ?? verifierLabel(v.model, v.source),
    deductions: v.deductions.map((d) => ({ points: bpsToScore(d.bps), reason: d.reason })),
    confidence: bpsToScore(v.confidenceBps),
    revision: v.revision,
    verifiedAt: v.createdAt.toISOString(),
  };
}

export function changeRequestJson(c: ChangeRequest): ChangeRequestJson {
  return {
    id: c.id,
    revision: c.revision,
    message: c.message,
    requestedAt: c.createdAt.toISOString(),
  };
}

export function settlementJson(s: Settlement): SettlementJson {
  return {
    id: s.id,
    milestoneId: s.milestoneId,
    via: s.via,
    chainId: s.chainId,
    amount: unitsToDecimal(s.amountUnits),
    refund: unitsToDecimal(s.refundUnits),
    verdictHash: s.verdictHash,
    scoreUsed: bpsToScore(s.scoreBps),
    recipient: s.recipient,
    txHash: s.txHash,
    logIndex: s.logIndex,
    status: s.status,
    explorerUrl: s.txHash ? explorerTxUrl(s.chainId, s.txHash) : null,
    reputationTxHash: s.reputationTxHash,
    inFlight: s.leaseExpiresAt !== null && s.leaseExpiresAt.getTime() > Date.now(),
    error: s.error,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * A milestone with its latest deliverable, the verdict on that revision and its settlement.
 * A revision the brand sent back for changes (`pending` again) has no verdict: whatever the
 * verifier said about it no longer counts, and the request is shown instead.
 */
export function milestoneJson(
  m: Milestone,
  related: {
    deliverables: Deliverable[];
    verifications: Verification[];
    settlement?: Settlement | null;
    changeRequests?: ChangeRequest[];
  },
): MilestoneJson {
  const deliverable = related.deliverables.find((d) => d.revision === m.revision) ?? null;
  const sentBack =
    m.status === "pending"
      ? (related.changeRequests?.find((c) => c.revision === m.revision) ?? null)
      : null;
  const verdict =
    m.status === "pending"
      ? null
      : (related.verifications.find((v) => v.revision === m.revision) ?? null);
  return {
    id: m.id,
    dealId: m.dealId,
    title: m.title,
    amount: unitsToNumber(m.amountUnits),
    requirements: m.requirements,
    dueAt: m.dueAt ? m.dueAt.toISOString() : null,
    status: m.status,
    deliverable: deliverable ? deliverableJson(deliverable) : null,
    verdict: verdict ? verdictJson(verdict) : null,
    settlement: related.settlement ? settlementJson(related.settlement) : null,
    changeRequest: sentBack ? changeRequestJson(sentBack) : null,
    refundTxHash: m.refundTxHash,
    metadata: m.metadata,
  };
}

type Party = DealDetails["parties"][number];

type Grouped = {
  milestones: Map<string, Milestone[]>;
  deliverables: Map<string, Deliverable[]>;
  verifications: Map<string, Verification[]>;
  changeRequests: Map<string, ChangeRequest[]>;
  settlementOf: Map<string, Settlement>;
  dealSettlements: Map<string, Settlement[]>;
  parties: Map<string, Party>;
  refundTo: Map<string, string>;
};

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

// Details grouped by owner once per set of details (one pass each), not filtered per deal.
const groupedCache = new WeakMap<DealDetails, Grouped>();
function grouped(details: DealDetails): Grouped {
  let g = groupedCache.get(details);
  if (!g) {
    g = {
      milestones: groupBy(details.milestones, (m) => m.dealId),
      deliverables: groupBy(details.deliverables, (d) => d.milestoneId),
      verifications: groupBy(details.verifications, (v) => v.milestoneId),
      changeRequests: groupBy(details.changeRequests, (c) => c.milestoneId),
      settlementOf: new Map(details.settlements.map((s) => [s.milestoneId, s])),
      dealSettlements: groupBy(details.settlements, (s) => s.dealId),
      parties: new Map(details.parties.map((p) => [p.id, p])),
      refundTo: new Map(details.fundingDeposits.map((d) => [d.dealId, d.refundAddress])),
    };
    groupedCache.set(details, g);
  }
  return g;
}

const partyName = (p: Party) => p.displayName?.trim() || p.email;

export function dealJson(deal: Deal, details: DealDetails): DealJson {
  const g = grouped(details);
  const ms = g.milestones.get(deal.id) ?? [];
  const party = (id: string | null): Party | undefined => (id ? g.parties.get(id) : undefined);
  const brand = party(deal.brandId);
  const creator = party(deal.creatorId);
  const milestonesOut = ms.map((m) =>
    milestoneJson(m, {
      deliverables: g.deliverables.get(m.id) ?? [],
      verifications: g.verifications.get(m.id) ?? [],
      settlement: g.settlementOf.get(m.id) ?? null,
      changeRequests: g.changeRequests.get(m.id) ?? [],
    }),
  );
  const dealSettlements = g.dealSettlements.get(deal.id) ?? [];
  const paidUnits = dealSettlements
    .filter((s) => s.status === "confirmed")
    .reduce((sum, s) => sum + s.amountUnits, 0n);
  return {
    id: deal.id,
    brandId: deal.brandId,
    creatorId: deal.creatorId,
    title: deal.title,
    description: deal.description,
    platform: deal.platform,
    budget: unitsToNumber(deal.budgetUnits),
    status: deal.status,
    minScore: bpsToScore(deal.minScoreBps),
    autoSettleConfidence: bpsToScore(deal.autoSettleConfidenceBps),
    termsVersion: deal.termsVersion,
    disclosure: disclosureJson(deal),
    inviteEmail: deal.inviteEmail,
    paid: unitsToDecimal(paidUnits),
    escrow: escrowJson(deal, ms, dealSettlements, g.refundTo.get(deal.id) ?? deal.brandWallet),
    brand: brand ? { id: brand.id, name: partyName(brand), email: brand.email } : null,
    creator: creator
      ? {
          id: creator.id,
          name: partyName(creator),
          email: creator.email,
          walletAddress: creator.walletAddress ? getAddress(creator.walletAddress) : null,
        }
      : null,
    metadata: deal.metadata,
    createdAt: deal.createdAt.toISOString(),
    milestones: milestonesOut,
  };
}
