// Display helpers for deals, shared by the dashboards and the deal page. Browser-safe:
// the API types are type-only imports.
import type { DealJson, MilestoneJson, SettlementJson, VerdictJson } from "@/lib/deals/serialize";
import { autoSettles, unjudged } from "@/lib/verify/confidence";

export type {
  DealJson,
  DeductionJson,
  DeliverableJson,
  MilestoneJson,
  SettlementJson,
  VerdictJson,
} from "@/lib/deals/serialize";

export type BadgeTone = "ok" | "warn" | "bad" | "neutral" | "info";

/** USDC for people: "1,200.00 USDC", "12.345 USDC". Accepts the API's numbers and decimal strings. */
export function formatUsdc(value: number | string, unit = true): string {
  const n = typeof value === "string" ? Number(value) : value;
  const text = Number.isFinite(n)
    ? n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })
    : String(value);
  return unit ? `${text} USDC` : text;
}

/** A score in [0,1] as a percentage: 0.9 → "90%", 0.8765 → "87.65%". */
export const formatScore = (score: number) =>
  `${Number((score * 100).toFixed(2)).toLocaleString("en-US")}%`;

/** A share taken off a score: 0.1 → "−10 %". */
export const formatDeduction = (points: number) =>
  `−${Number((points * 100).toFixed(2)).toLocaleString("en-US")} %`;

export function formatDate(iso: string | null, withTime = false): string {
  if (!iso) return "";
  const date = new Date(iso);
  return withTime
    ? date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })
    : date.toLocaleDateString("en-US", { dateStyle: "medium" });
}

const platformNames: Record<string, string> = {
  instagram: "Instagram",
  tiktok: "TikTok",
  x: "X",
  youtube: "YouTube",
  other: "Other",
};
export const platformLabel = (platform: string) => platformNames[platform] ?? platform;

const dealTones: Record<string, BadgeTone> = {
  unfunded: "neutral",
  expired: "bad",
  open: "warn",
  active: "info",
  completed: "ok",
  cancelled: "bad",
};
export const dealTone = (status: string): BadgeTone => dealTones[status] ?? "neutral";

const milestoneTones: Record<string, BadgeTone> = {
  pending: "neutral",
  submitted: "info",
  approved: "warn",
  paid: "ok",
  rejected: "bad",
  refunded: "neutral",
};
export const milestoneTone = (status: string): BadgeTone => milestoneTones[status] ?? "neutral";

const milestoneLabels: Record<string, string> = {
  pending: "Awaiting deliverable",
  submitted: "Submitted",
  approved: "Approved · paying",
  paid: "Paid",
  rejected: "Rejected",
  refunded: "Refunded to the brand",
};
/** A milestone's status in words; the brand reads "Refunded to you". */
export const milestoneLabel = (status: string, viewer?: string) =>
  status === "refunded" && viewer === "brand"
    ? "Refunded to you"
    : (milestoneLabels[status] ?? status);

const dealLabels: Record<string, string> = {
  unfunded: "Waiting for funding",
  open: "Open",
  active: "Active",
  completed: "Completed",
  cancelled: "Cancelled",
  expired: "Expired",
};
/** A deal's status in plain words ("Waiting for funding"; the brand reads "Expired · refunded to you"). */
export const dealLabel = (status: string, viewer?: string) =>
  status === "expired" && viewer === "brand"
    ? "Expired · refunded to you"
    : (dealLabels[status] ?? status);

/** A decimal USDC string or number ("90.000000", 90) → base units; 0n when unreadable. */
export function toUnits(value: string | number): bigint {
  const text = typeof value === "number" ? value.toFixed(6) : value.trim();
  const match = /^(\d+)(?:\.(\d{0,6})\d*)?$/.exec(text);
  if (!match) return 0n;
  const [, whole = "0", frac = ""] = match;
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
}

/** Base units → "1,200.00 USDC" (all significant decimals, at least two). */
export function formatUnitsUsdc(units: bigint, unit = true): string {
  const whole = (units / 1_000_000n).toLocaleString("en-US");
  const frac = (units % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${whole}.${frac}${unit ? " USDC" : ""}`;
}

/** "0x1234…cdef" for hashes and addresses. */
export const shortHex = (hex: string, chars = 4) =>
  hex.length > 2 + chars * 2 + 1 ? `${hex.slice(0, 2 + chars)}…${hex.slice(-chars)}` : hex;

/** Whether unreleased milestones of a funded deal can be returned to the brand now. */
export const canReclaim = (deal: DealJson, now = Date.now()) =>
  deal.escrow.funded &&
  toUnits(deal.escrow.locked) > 0n &&
  now > new Date(deal.escrow.refundableAt).getTime();

/** A funded deal nobody has taken: its brand may still cancel it from the funding wallet. */
export const cancellable = (deal: DealJson) =>
  (deal.status === "unfunded" || deal.status === "open") &&
  !deal.creatorId &&
  !deal.escrow.creatorAssigned;

/** The class list of a status badge. */
export const badgeClass = (tone: BadgeTone) => (tone === "info" ? "badge" : `badge ${tone}`);

export const paidCount = (deal: DealJson) =>
  deal.milestones.filter((m) => m.status === "paid").length;

/** "1 of 2 paid". */
export const progressText = (deal: DealJson) =>
  `${paidCount(deal)} of ${deal.milestones.length} paid`;

/** The gate of POST /api/settle, compared in basis points exactly as the server does. */
type Sureness = Pick<VerdictJson, "confidence" | "verifier">;

/**
 * Below the deal's auto-settle threshold (or with a criterion nobody judged) the brand
 * decides: the brand's settle answers 409 needs_decision (lib/verify/confidence.ts).
 */
export const needsDecision = (verdict: Sureness, deal: Pick<DealJson, "autoSettleConfidence">) =>
  !autoSettles(verdict, deal.autoSettleConfidence);

/** Why a verdict waits for the brand, in words (one sentence, no full stop). */
export function uncertainReason(
  verdict: Sureness,
  deal: Pick<DealJson, "autoSettleConfidence">,
): string {
  // Sure enough for this deal's threshold, but a rule check that judged nothing of the criteria.
  if (unjudged(verdict) && verdict.confidence >= deal.autoSettleConfidence)
    return `The verifier (${verdict.verifier}) cannot judge this milestone's criteria, so they are left to you whatever the deal's auto-settle threshold (${formatScore(deal.autoSettleConfidence)})`;
  return `The verifier (${verdict.verifier}) is ${formatScore(verdict.confidence)} sure of its verdict, below the ${formatScore(deal.autoSettleConfidence)} it needs to settle on its own`;
}

export function gatePasses(verdict: { approved: boolean; score: number }, minScore: number) {
  return verdict.approved && Math.round(verdict.score * 10_000) >= Math.round(minScore * 10_000);
}

/** floor(amount × score) in USDC base units, as the settlement will pay it. */
export function expectedPayout(amount: number, score: number): string {
  const units = BigInt(Math.round(amount * 1_000_000));
  const paid = (units * BigInt(Math.round(score * 10_000))) / 10_000n;
  return (Number(paid) / 1_000_000).toFixed(6);
}

export const requirementCount = (m: MilestoneJson) =>
  m.requirements.hashtags.length +
  m.requirements.mentions.length +
  m.requirements.links.length +
  m.requirements.criteria.length;

/** Whether a milestone still needs something from the creator (first submission or a fix). */
export const awaitsCreator = (m: MilestoneJson) =>
  m.status === "pending" || m.status === "rejected";

/** The platforms a deal can target (as lib/deals/schemas, which is server code). */
export const platforms = ["instagram", "tiktok", "x", "youtube", "other"] as const;

/**
 * Where a milestone's payment stands, as both parties should read it:
 * - `paying`: a settle call (or reconcile) is sending or confirming it right now;
 * - `delayed`: sent or about to be, but nobody is advancing it (the chain was down, the
 *   receipt did not come in time): reconcile retries it and the brand may retry now;
 * - `failed`: the last attempt did not go through; only settling again retries it;
 * - `paid`: confirmed on-chain. `none`: no settlement yet.
 */
export type PaymentState = "none" | "paying" | "delayed" | "failed" | "paid";

export function paymentState(
  settlement: Pick<SettlementJson, "status" | "inFlight"> | null | undefined,
): PaymentState {
  if (!settlement) return "none";
  switch (settlement.status) {
    case "confirmed":
      return "paid";
    case "failed":
      return settlement.inFlight ? "paying" : "failed";
    default:
      return settlement.inFlight ? "paying" : "delayed";
  }
}

/** A payment that needs attention: delayed, or failed and waiting for the brand's retry. */
export const paymentStuck = (state: PaymentState) => state === "delayed" || state === "failed";

/** The deal's milestones whose payment is stuck (the dashboards flag the deal). */
export const stuckPayments = (deal: DealJson) =>
  deal.milestones.filter((m) => paymentStuck(paymentState(m.settlement)));

/** A milestone's status badge text, with its payment's state when the payment is stuck. */
export function milestoneStatusText(m: MilestoneJson, viewer?: string): string {
  if (m.status === "pending" && m.changeRequest) return "Changes requested";
  if (m.status === "approved") {
    const state = paymentState(m.settlement);
    if (state === "delayed") return "Approved · payment delayed";
    if (state === "failed") return "Approved · payment failed";
  }
  return milestoneLabel(m.status, viewer);
}

/**
 * What a verdict rests on, in plain words: the hashtags, mentions and links the service
 * checks itself on the post (lib/verify/checks.ts lists a missing one as "hashtag #x"),
 * and the free-text criteria — judged by the AI model, or not checked at all by the
 * offline rubric. Presentation only: the verdict itself is not changed.
 */
export type VerdictCoverage = {
  /** Required hashtags, mentions and links: found on the post, missing, or not checked (unread post). */
  checked: { item: string; state: "found" | "missing" | "unchecked" }[];
  /** Criteria the AI model judged (`met: false` when the verdict lists it as missing). */
  judged: { item: string; met: boolean }[];
  /** Criteria nobody judged: the offline rubric cannot, and says so. */
  unchecked: string[];
  /** The verdict came from an offline verifier (no AI model judged it). */
  offline: boolean;
  /** The post could not be read, so nothing in it was checked. */
  postUnread: boolean;
};

/** The verifiers that judge no free-text criteria (lib/verify: the rubric and the evidence gate). */
const offlineVerifiers = ["rubric-v2", "evidence-gate-v1"];

const withPrefix = (prefix: string, v: string) => {
  const t = v.trim();
  return t.startsWith(prefix) ? t : `${prefix}${t}`;
};

export function verdictCoverage(
  requirements: MilestoneJson["requirements"],
  verdict: Pick<VerdictJson, "missing" | "model">,
): VerdictCoverage {
  const missing = verdict.missing.map((m) => m.trim().toLowerCase());
  const postUnread = missing.some((m) => m.startsWith("post not verifiable"));
  const offline = offlineVerifiers.includes(verdict.model) || verdict.model.startsWith("rubric");
  const checkedItem = (kind: string, item: string) => ({
    item,
    state: postUnread
      ? ("unchecked" as const)
      : missing.includes(`${kind} ${item}`.toLowerCase())
        ? ("missing" as const)
        : ("found" as const),
  });
  const criterionMissing = (c: string) => {
    const text = c.trim().toLowerCase();
    return missing.some((m) => m === text || m.includes(text));
  };
  return {
    checked: [
      ...requirements.hashtags.map((h) => checkedItem("hashtag", withPrefix("#", h))),
      ...requirements.mentions.map((m) => checkedItem("mention", withPrefix("@", m))),
      ...requirements.links.map((l) => checkedItem("link", l.trim())),
    ],
    judged: offline
      ? []
      : requirements.criteria.map((item) => ({ item, met: !criterionMissing(item) })),
    unchecked: offline ? requirements.criteria : [],
    offline,
    postUnread,
  };
}
