import { and, desc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import {
  type Appeal,
  appeals,
  type Decision,
  decisions,
  deliverables,
  users,
  verifications,
} from "@/db/schema";

// Reads around a verdict: the brand's decisions, the creator's appeals, submission times
// and the verifier's stored verdicts, per milestone revision (lib/settle/review.ts).

export async function findDecision(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<Decision | undefined> {
  const [row] = await db
    .select()
    .from(decisions)
    .where(and(eq(decisions.milestoneId, milestoneId), eq(decisions.revision, revision)));
  return row;
}

export async function findAppeal(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<Appeal | undefined> {
  const [row] = await db
    .select()
    .from(appeals)
    .where(and(eq(appeals.milestoneId, milestoneId), eq(appeals.revision, revision)));
  return row;
}

export async function findVerification(db: DbOrTx, milestoneId: string, revision: number) {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.milestoneId, milestoneId), eq(verifications.revision, revision)));
  return row;
}

/** When the given revision of a milestone was submitted (undefined: never). */
export async function findSubmittedAt(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<Date | undefined> {
  const [row] = await db
    .select({ submittedAt: deliverables.submittedAt })
    .from(deliverables)
    .where(and(eq(deliverables.milestoneId, milestoneId), eq(deliverables.revision, revision)));
  return row?.submittedAt;
}

/** Submissions, appeals and decisions (with the decider's name) of several milestones. */
export async function listReviewRows(db: DbOrTx, milestoneIds: string[]) {
  const [submissions, appealRows, decisionRows] = await Promise.all([
    db
      .select({
        milestoneId: deliverables.milestoneId,
        revision: deliverables.revision,
        submittedAt: deliverables.submittedAt,
      })
      .from(deliverables)
      .where(inArray(deliverables.milestoneId, milestoneIds))
      .orderBy(desc(deliverables.revision)),
    db.select().from(appeals).where(inArray(appeals.milestoneId, milestoneIds)),
    db
      .select({ decision: decisions, name: users.displayName })
      .from(decisions)
      .innerJoin(users, eq(users.id, decisions.deciderId))
      .where(inArray(decisions.milestoneId, milestoneIds)),
  ]);
  return { submissions, appeals: appealRows, decisions: decisionRows };
}
