import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { findVisibleMilestone } from "@/db/queries/deals";
import {
  type Deal,
  deliverables,
  type Milestone,
  type User,
  type Verification,
  verifications,
} from "@/db/schema";
import { type VerdictJson, verdictJson } from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { scoreToBps } from "@/lib/money";
import { runVerifier, type VerifierOptions } from "./verifier";

// One verifier call per deliverable revision. The stored row is the verdict: a repeat
// returns it instead of re-rolling the model until it says yes. Concurrent first calls
// queue on a transaction-scoped advisory lock per milestone, so only one of them pays
// for a model call; the unique (milestone_id, revision) key is the backstop.
// Verifying never changes the milestone's status: settlement does that.

export const verifyBody = z.object({ milestoneId: z.uuid("must be a UUID") });

type Caller = Pick<User, "id" | "email">;

function noDeliverable(): AppError {
  return new AppError("no_deliverable", "Nothing has been submitted for this milestone yet.");
}

async function storedVerdict(db: DbOrTx, milestoneId: string, revision: number) {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.milestoneId, milestoneId), eq(verifications.revision, revision)));
  return row;
}

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
  opts: VerifierOptions = {},
): Promise<Verification> {
  const revision = milestone.revision;
  if (revision < 1) throw noDeliverable();
  const existing = await storedVerdict(db, milestone.id, revision);
  if (existing) return existing;

  const [deliverable] = await db
    .select()
    .from(deliverables)
    .where(and(eq(deliverables.milestoneId, milestone.id), eq(deliverables.revision, revision)));
  if (!deliverable) throw noDeliverable();

  // Kept to the lock, the re-check, the model call and the insert. On PGlite (one
  // connection) this queues every other query for the length of the model call.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`verify:${milestone.id}`}))`);
    const raced = await storedVerdict(tx, milestone.id, revision);
    if (raced) return raced;

    const result = await runVerifier(
      {
        requirements: milestone.requirements,
        deliverable: { url: deliverable.url, text: deliverable.text, note: deliverable.note },
        dealTitle: deal.title,
        milestoneTitle: milestone.title,
        platform: deal.platform,
      },
      opts,
    );
    await tx
      .insert(verifications)
      .values({
        milestoneId: milestone.id,
        revision,
        approved: result.verdict.approved,
        scoreBps: scoreToBps(result.verdict.score),
        reasoning: result.verdict.reasoning,
        missing: result.verdict.missing,
        model: result.model,
        latencyMs: result.latencyMs,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
      })
      .onConflictDoNothing({ target: [verifications.milestoneId, verifications.revision] });
    // The database row is the truth, whoever inserted it.
    const stored = await storedVerdict(tx, milestone.id, revision);
    if (!stored) throw new Error(`verification for ${milestone.id}@${revision} vanished`);
    return stored;
  });
}

/** POST /api/verify: either party of the deal gets the verdict on the current revision. */
export async function verifyMilestone(
  db: DbOrTx,
  caller: Caller,
  milestoneId: string,
  opts: VerifierOptions = {},
): Promise<VerdictJson> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  // An open deal is visible to prospective creators, but only parties may verify.
  if (!row || (row.deal.brandId !== caller.id && row.deal.creatorId !== caller.id))
    throw notFound("Milestone");
  return verdictJson(await verdictForRevision(db, row.milestone, row.deal, opts));
}
