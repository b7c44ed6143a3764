import { type Hex, keccak256, toBytes } from "viem";
import type { VerdictDeduction, VerdictSource, Verification } from "@/db/schema";

// The verdict record a payment is decided on, serialised canonically (keys sorted, no
// whitespace, integers only — scores in basis points) so that anyone holding the stored
// record can recompute the bytes32 the escrow release carried on-chain and check what the
// payment was based on.

export type VerdictRecord = {
  milestoneId: string;
  revision: number;
  approved: boolean;
  scoreBps: number;
  reasoning: string;
  missing: string[];
  model: string;
  source: VerdictSource;
  /** The fetched evidence (lib/verify/evidence) the verdict rests on: its status and content hash; null for verdicts from before evidence. */
  evidence: EvidenceRef | null;
  /** The prompt's version when a model answered; null for the rubric and the evidence gate. */
  promptVersion: string | null;
  /** Who decided, when a person did (a brand decision). */
  decidedBy: string | null;
  verifiedAt: string;
  /** Who judged, in words (lib/verify/labels.ts); absent from records made before it was kept. */
  verifier?: string;
  /** What took the score below 100 %, in basis points, each with its reason. */
  deductions?: VerdictDeduction[];
  /** The verifier's confidence in basis points: settle pays on its own only above the threshold. */
  confidenceBps?: number;
};

/** What a verdict record says of its evidence: enough to find the stored record and check its hash. */
export type EvidenceRef = {
  status: string;
  platform: string;
  url: string;
  authorHandle: string | null;
  contentHash: string;
  fetchedAt: string;
};

/** JSON with object keys sorted at every level and no insignificant whitespace. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isSafeInteger(value))
      throw new TypeError("canonical records hold integers only");
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The record of a stored (or about to be stored) verdict: its fields, picked one way only. */
export function verdictRecordOf(
  v: Pick<
    Verification,
    | "milestoneId"
    | "revision"
    | "approved"
    | "scoreBps"
    | "reasoning"
    | "missing"
    | "model"
    | "source"
    | "createdAt"
  > &
    Partial<Pick<Verification, "verifier" | "deductions" | "confidenceBps">>,
  basis: { evidence: EvidenceRef | null; promptVersion: string | null } = {
    evidence: null,
    promptVersion: null,
  },
): VerdictRecord {
  return {
    milestoneId: v.milestoneId,
    revision: v.revision,
    approved: v.approved,
    scoreBps: v.scoreBps,
    reasoning: v.reasoning,
    missing: v.missing,
    model: v.model,
    source: v.source,
    evidence: basis.evidence,
    promptVersion: basis.promptVersion,
    decidedBy: null,
    verifiedAt: v.createdAt.toISOString(),
    // Verdicts from before these were kept have no verifier: their records stay as they were.
    ...(v.verifier
      ? { verifier: v.verifier, deductions: v.deductions ?? [], confidenceBps: v.confidenceBps }
      : {}),
  };
}

export function hashVerdictRecord(record: VerdictRecord): { record: string; hash: Hex } {
  const text = canonicalJson(record);
  return { record: text, hash: keccak256(toBytes(text)) };
}
