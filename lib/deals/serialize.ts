import { getAddress } from "viem";
import type { DealDetails } from "@/db/queries/deals";
import type {
  ChangeRequest,
  Deal,
  Deliverable,
  Milestone,
  MilestoneStatus,
  Requirements,
  Settlement,
  Verification,
} from "@/db/schema";
import { explorerTxUrl } from "@/lib/chain/explorer";
import { GRACE_PERIOD_SECONDS } from "@/lib/escrow/onchain";
import { bpsToScore, unitsToDecimal, unitsToNumber } from "@/lib/money";
import { verifierLabel } from "@/lib/verify/labels";

// The JSON shapes of the contract. One place, so every endpoint answers alike.

export type DeliverableJson = {
  url: string;
  text: string;
  note: string;
  revision: number;
  submittedAt: string;
};

/** One share taken off a verdict's score (0.1 = 10 %) and why. */
export type DeductionJson = { points: number; reason: string };

export type VerdictJson = {
  approved: boolean;
  score: number;
  reasoning: string;
  missing: string[];
  model: string;
  /** Who judged, in words: "Rule check", "AI review (model)", "Panel of N models", "Brand decision". */
  verifier: string;
  /** What took the score below 100 %, one line each. */
  deductions: DeductionJson[];
  /** How sure the verifier is, 0–1; below the auto-settle threshold the brand decides. */
  confidence: number;
  revision: number;
  verifiedAt: string;
};

export type SettlementJson = {
  id: string;
  milestoneId: string;
  via: string;
  chainId: number;
  /** Paid to the creator by the escrow release. */
  amount: string;
  /** The rest of the milestone, returned to the brand by the same release. */
  refund: string;
  /** The verdict record's hash the release carried on-chain. */
  verdictHash: string | null;
  scoreUsed: number;
  recipient: string;
  txHash: string | null;
  status: string;
  explorerUrl: string | null;
  reputationTxHash: string | null;
  /**
   * Someone (a settle call or reconcile) is advancing the payment right now. A `pending` or
   * `submitted` settlement nobody is advancing is delayed: reconcile retries it, and
   * settling again resumes it.
   */
  inFlight: boolean;
  /** Why the last attempt failed (a `failed` settlement), else null. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
};

/** The brand sent a submitted revision back to the creator with this message. */
export type ChangeRequestJson = {
  id: string;
  /** The revision sent back; the creator's next submission is the next revision. */
  revision: number;
  message: string;
  requestedAt: string;
};

export type MilestoneJson = {
  id: string;
  dealId: string;
  title: string;
  amount: number;
  requirements: Requirements;
  dueAt: string | null;
  status: MilestoneStatus;
  deliverable: DeliverableJson | null;
  verdict: VerdictJson | null;
  settlement: SettlementJson | null;
  /**
   * While the milestone is `pending` after the brand asked for changes: that request (its
   * `deliverable` is the revision sent back). Null otherwise.
   */
  changeRequest: ChangeRequestJson | null;
  /** The escrow refund of this milestone (cancelled or expired deal). */
  refundTxHash: string | null;
  metadata: Record<string, string>;
};

type Party = DealDetails["parties"][number];

export type DealJson = {
  id: string;
  brandId: string;
  creatorId: string | null;
  title: string;
  description: string;
  platform: string;
  budget: number;
  status: string;
  minScore: number;
  /** The confidence a verdict needs to settle on its own (0.5–1); below it the brand decides. */
  autoSettleConfidence: number;
  /** Goes up with each edit of the terms; a creator takes the version they reviewed. */
  termsVersion: number;
  /**
   * The FTC disclosure rule: `required` (every post carries #ad, #sponsored or
   * #paidpartnership within its first 125 characters, or the platform's label), or off with
   * the brand's `reason`.
   */
  disclosure: DisclosureJson;
  inviteEmail: string | null;
  /** USDC paid out so far (confirmed settlements), a decimal string. */
  paid: string;
  escrow: EscrowJson;
  /**
   * `name`: the organisation's display name (the e-mail until one is set), what a page
   * shows. `email` is kept for older clients and will go.
   */
  brand: { id: string; name: string; email: string } | null;
  creator: { id: string; name: string; email: string; walletAddress: string | null } | null;
  metadata: Record<string, string>;
  createdAt: string;
  milestones: MilestoneJson[];
};

export type DisclosureJson = { required: boolean; reason: string | null };

/** The deal's disclosure rule as the API shows it. */
export const disclosureJson = (deal: Deal): DisclosureJson => ({
  required: deal.disclosureRequired,
  reason: deal.disclosureRequired ? null : deal.disclosureOffReason,
});

/** The deal's money in the escrow (decimal strings, 6 places). */
export type EscrowJson = {
  funded: boolean;
  budget: string;
  /** Still held by the escrow. */
  locked: string;
  /** Paid to the creator. */
  released: string;
  /** Returned to the brand (release remainders, cancel, expired milestones). */
  refunded: string;
  deadline: string;
  /** After this instant unreleased milestones are refundable to the brand. */
  refundableAt: string;
  chainId: number | null;
  address: string | null;
  brandWallet: string | null;
  /**
   * Where the escrow sends what it does not release (remainders, refunds, cancels): the
   * refund address the brand named for a deposit that funded the deal, else the funding wallet.
   */
  refundTo: string | null;
  creatorWallet: string | null;
  /** The creator's address is recorded on-chain (the brand can no longer cancel). */
  creatorAssigned: boolean;
  fundingTxHash: string | null;
  fundingExplorerUrl: string | null;
};

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
