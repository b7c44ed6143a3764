import type { Hex } from "viem";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { findHandle } from "@/db/queries/creator-handles";
import { findVisibleMilestone } from "@/db/queries/deals";
import { latestApprovedDraft } from "@/db/queries/drafts";
import { findEvidence, insertEvidence } from "@/db/queries/evidence";
import {
  backfillRecordHash,
  findDeliverable,
  findVerification,
  insertVerification,
  readVerifyLease,
  releaseVerifyLease,
  takeVerifyLease,
} from "@/db/queries/verifications";
import type { Deal, Deliverable, Milestone, User, Verification } from "@/db/schema";
import { type VerdictJson, verdictJson } from "@/lib/deals/serialize";
import { env } from "@/lib/env";
import { AppError, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/events";
import { scoreToBps } from "@/lib/money";
import { changesRequested, sentBackForChanges } from "@/lib/settle/change-requests";
import { type Evidence, type EvidenceOptions, fetchEvidence } from "./evidence";
import { EVIDENCE_TIMEOUT_MS } from "./evidence/fetch";
import { evidenceOfRow, evidenceRow } from "./evidence/store";
import { verifierLabel } from "./labels";
import { type EvidenceRef, hashVerdictRecord, verdictRecordOf } from "./record";
import { RUBRIC_MODEL_ID } from "./rubric";
import type { VerifierInput } from "./verdict";
import {
  NO_EVIDENCE_MODEL_ID,
  runVerifier,
  type VerifierOptions,
  verifierWorstCaseMs,
} from "./verifier";

// One verifier call per deliverable revision. The stored row is the verdict: a repeat
// returns it instead of re-rolling the model until it says yes. Concurrent first calls
// race for a lease on the milestone row (a conditional update, no transaction held): the
// winner calls the model, the others wait for its stored verdict; the unique
// (milestone_id, revision) key is the backstop. No lock is held across the model call, so
// a slow model never stalls the database (PGlite has one connection for everything).
// Verifying never changes the milestone's status: settlement does that.
// The verdict rests on evidence: the post behind the deliverable URL is fetched (under the
// lease, outside any transaction) and stored with the verdict, one record per revision.

export const verifyBody = z.object({ milestoneId: z.uuid("must be a UUID") });

type Caller = Pick<User, "id" | "email">;

/** The verifier's options, and how the evidence is read (tests point it at fake platforms). */
export type VerifyOptions = VerifierOptions & { evidence?: EvidenceOptions };

function noDeliverable(): AppError {
  return new AppError("no_deliverable", "Nothing has been submitted for this milestone yet.");
}

const storedVerdict = findVerification;

/**
 * The verdict on the milestone's current revision: the stored one, else a new one from
 * the verifier, stored before it is returned. For settlement, which has already loaded
 * (and checked access to) the milestone and its deal. Throws 409 no_deliverable when
 * nothing is submitted, 502 verifier_unavailable when the verifier fails (nothing stored).
 */
export async function verdictForRevision(
  db: DbOrTx,
  milestone: Milestone,
  deal: Deal,
  opts: VerifyOptions = {},
  /** The stored verdict on this revision when the caller read it along with the milestone. */
  known?: Verification | null,
): Promise<Verification> {
  const revision = milestone.revision;
  if (revision < 1) throw noDeliverable();
  // A revision the brand sent back for changes is not judged (its next one will be).
  if (sentBackForChanges(milestone)) throw changesRequested(milestone);
  if (known && known.milestoneId === milestone.id && known.revision === revision) return known;
  const existing = await storedVerdict(db, milestone.id, revision);
  if (existing) return existing;

  const deliverable = await findDeliverable(db, milestone.id, revision);
  if (!deliverable) throw noDeliverable();

  for (;;) {
    const leaseMs = verifyLeaseMs(opts);
    const owner = await takeVerifyLease(db, milestone.id, revision, leaseMs);
    if (owner) {
      try {
        return await runAndStore(db, milestone, deal, deliverable, opts);
      } finally {
        await releaseVerifyLease(db, milestone.id, owner).catch(() => {});
      }
    }
    // Someone else is asking the model about this revision: wait for their verdict, or
    // for their lease to lapse (a crashed caller) and try again.
    const waited = await waitForVerdict(db, milestone.id, revision, leaseMs);
    if (waited) return waited;
  }
}

/** Room for the database writes around the verifier, beyond its worst case. */
const LEASE_MARGIN_MS = 15_000;

/**
 * How long the verifier lease lasts: the evidence fetch (one bounded read) and every model
 * attempt timing out, plus a margin. Shorter, a second caller could take the lease from a
 * verifier still at work and ask the model again.
 */
export function verifyLeaseMs(opts: VerifyOptions = {}): number {
  const evidenceMs = opts.evidence?.timeoutMs ?? EVIDENCE_TIMEOUT_MS;
  return evidenceMs + verifierWorstCaseMs(opts) + LEASE_MARGIN_MS;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls for the verdict another caller is producing; null once their lease has lapsed. */
async function waitForVerdict(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
  leaseMs: number,
): Promise<Verification | null> {
  const deadline = Date.now() + leaseMs;
  for (let delay = 50; Date.now() < deadline; delay = Math.min(delay * 2, 500)) {
    const stored = await storedVerdict(db, milestoneId, revision);
    if (stored) return stored;
    const row = await readVerifyLease(db, milestoneId);
    if (!row || row.revision !== revision)
      throw new AppError(
        "invalid_state",
        "A new deliverable was submitted meanwhile; verify again to judge it.",
      );
    if (!row.lease || row.lease.getTime() < Date.now()) return null;
    await pause(delay);
  }
  return null;
}

/** The evidence of a revision: the stored record, else the post fetched now (no transaction open). */
async function evidenceFor(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
  url: string,
  options: EvidenceOptions | undefined,
): Promise<{ evidence: Evidence; stored: boolean }> {
  const row = await findEvidence(db, milestoneId, revision);
  if (row) return { evidence: evidenceOfRow(row), stored: true };
  return { evidence: await fetchEvidence(url, options), stored: false };
}

function evidenceRef(e: Evidence): EvidenceRef {
  return e.status === "ok"
    ? {
        status: e.status,
        platform: e.record.platform,
        url: e.record.url,
        authorHandle: e.record.authorHandle,
        contentHash: e.contentHash,
        fetchedAt: e.record.fetchedAt,
      }
    : {
        status: e.status,
        platform: e.platform,
        url: e.url,
        authorHandle: null,
        contentHash: e.contentHash,
        fetchedAt: e.fetchedAt,
      };
}

/**
 * What the verifier is given for a deliverable and its evidence: the brief, the creator's
 * claim, and the creator's declared handle on the evidence's platform (and whether proved).
 */
export async function verifierInput(
  db: DbOrTx,
  deal: Deal,
  milestone: Milestone,
  deliverable: Pick<Deliverable, "url" | "text" | "note">,
  evidence: Evidence,
): Promise<VerifierInput> {
  const platform = evidence.status === "ok" ? evidence.record.platform : evidence.platform;
  const declared = deal.creatorId ? await findHandle(db, deal.creatorId, platform) : null;
  const draft = await latestApprovedDraft(db, milestone.id);
  return {
    requirements: milestone.requirements,
    deliverable: { url: deliverable.url, text: deliverable.text, note: deliverable.note },
    evidence,
    declaredHandle: declared?.handle ?? null,
    handleVerified: !!declared?.verifiedAt,
    dealTitle: deal.title,
    milestoneTitle: milestone.title,
    disclosureRequired: deal.disclosureRequired,
    platform: deal.platform,
    approvedDraft: draft
      ? {
          revision: draft.revision,
          caption: draft.caption,
          minSimilarity: env().DRAFT_MATCH_MIN_SIMILARITY,
        }
      : null,
  };
}

/** Reads the evidence and calls the verifier (no transaction open), then stores both; returns the stored verdict. */
async function runAndStore(
  db: DbOrTx,
  milestone: Milestone,
  deal: Deal,
  deliverable: Deliverable,
  opts: VerifyOptions,
): Promise<Verification> {
  const raced = await storedVerdict(db, milestone.id, deliverable.revision);
  if (raced) return raced;
  const { evidence, stored: evidenceStored } = await evidenceFor(
    db,
    milestone.id,
    deliverable.revision,
    deliverable.url,
    opts.evidence,
  );
  const result = await runVerifier(
    await verifierInput(db, deal, milestone, deliverable, evidence),
    opts,
  );
  const verifiedAt = new Date();
  const source =
    result.model === RUBRIC_MODEL_ID || result.model === NO_EVIDENCE_MODEL_ID
      ? ("rubric" as const)
      : ("model" as const);
  const fields = {
    milestoneId: milestone.id,
    revision: deliverable.revision,
    approved: result.verdict.approved,
    scoreBps: scoreToBps(result.verdict.score),
    reasoning: result.verdict.reasoning,
    missing: result.verdict.missing,
    model: result.model,
    source,
    verifier: verifierLabel(result.model, source),
    deductions: result.verdict.deductions,
    confidenceBps: scoreToBps(result.verdict.confidence),
  };
  const { record, hash } = hashVerdictRecord(
    verdictRecordOf(
      { ...fields, createdAt: verifiedAt },
      { evidence: evidenceRef(evidence), promptVersion: result.promptVersion },
    ),
  );
  await db.transaction(async (tx) => {
    if (!evidenceStored)
      await insertEvidence(tx, evidenceRow(milestone.id, deliverable.revision, evidence));
    const inserted = await insertVerification(tx, {
      ...fields,
      record,
      recordHash: hash,
      createdAt: verifiedAt,
      latencyMs: result.latencyMs,
      inputTokens: result.inputTokens,
      outputTokens: result.outputTokens,
    });
    if (inserted)
      await recordEvent(tx, {
        dealId: deal.id,
        milestoneId: milestone.id,
        type: "verified",
        data: {
          revision: fields.revision,
          approved: fields.approved,
          score: fields.scoreBps / 10_000,
          source: fields.source,
          verdictHash: hash,
        },
      });
  });
  // The database row is the truth, whoever inserted it.
  const stored = await storedVerdict(db, milestone.id, deliverable.revision);
  if (!stored) throw new Error(`verification for ${milestone.id}@${deliverable.revision} vanished`);
  return stored;
}

/**
 * The verdict record's hash (what a release carries on-chain). Verdicts stored before
 * records existed get theirs now, from their stored fields.
 */
export async function ensureRecordHash(db: DbOrTx, v: Verification): Promise<Hex> {
  if (v.recordHash) return v.recordHash as Hex;
  const { record, hash } = hashVerdictRecord(verdictRecordOf(v));
  const stored = await backfillRecordHash(db, v.id, { record, recordHash: hash });
  return (stored ?? hash) as Hex;
}

/** POST /api/verify: either party of the deal gets the verdict on the current revision. */
export async function verifyMilestone(
  db: DbOrTx,
  caller: Caller,
  milestoneId: string,
  opts: VerifyOptions = {},
): Promise<VerdictJson> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  // An open deal is visible to prospective creators, but only parties may verify.
  if (!row || (row.deal.brandId !== caller.id && row.deal.creatorId !== caller.id))
    throw notFound("Milestone");
  return verdictJson(await verdictForRevision(db, row.milestone, row.deal, opts));
}
