import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { placeholder, reusable } from "@/db/reusable";
import {
  type Appeal,
  appeals,
  decisions,
  type Milestone,
  milestones,
  type Settlement,
  settlements,
  verifications,
} from "@/db/schema";

// The brand's decisions and the creator's appeals (lib/settle/decisions.ts): by milestone
// id, which the caller reached through the deal's parties first (findVisibleMilestone) and
// checked is theirs to decide or appeal. The reads around a verdict are in reviews.ts.

/** The milestone's settlement, if it has one. */
export async function findMilestoneSettlement(
  db: DbOrTx,
  milestoneId: string,
): Promise<Settlement | undefined> {
  const [row] = await db.select().from(settlements).where(eq(settlements.milestoneId, milestoneId));
  return row;
}

/** The record hash of the verifier's verdict on a revision (none, or one row). */
export function listVerdictHashes(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<{ recordHash: string | null }[]> {
  return db
    .select({ recordHash: verifications.recordHash })
    .from(verifications)
    .where(and(eq(verifications.milestoneId, milestoneId), eq(verifications.revision, revision)));
}

const lockMilestoneStatement = reusable((db) =>
  db
    .select()
    .from(milestones)
    .where(eq(milestones.id, placeholder("id")))
    .for("no key update")
    .prepare("lock_milestone"),
);

/**
 * The milestone, its row locked FOR NO KEY UPDATE (as every milestone write takes: it still
 * lets the inserts that reference it — events, decisions, appeals — take their key-share
 * locks) until the transaction ends. Every settle takes it: a `reusable` statement.
 */
export async function lockMilestone(
  tx: DbOrTx,
  milestoneId: string,
): Promise<Milestone | undefined> {
  const [row] = await lockMilestoneStatement(tx, { id: milestoneId });
  return row;
}

export type NewDecision = typeof decisions.$inferInsert;

export async function insertDecision(tx: DbOrTx, values: NewDecision): Promise<void> {
  await tx.insert(decisions).values(values);
}

/** Marks an open appeal decided (an appeal already decided is left as it is). */
export async function markAppealDecided(tx: DbOrTx, appealId: string): Promise<void> {
  await tx
    .update(appeals)
    .set({ status: "decided", decidedAt: new Date() })
    .where(and(eq(appeals.id, appealId), eq(appeals.status, "open")));
}

/**
 * Moves a milestone that is still submitted on `revision` on to `status` (one conditional
 * UPDATE); false when it has moved on (another revision, or already settled or sent back).
 */
export async function leaveSubmitted(
  tx: DbOrTx,
  milestoneId: string,
  revision: number,
  status: "rejected" | "pending",
): Promise<boolean> {
  const changed = await tx
    .update(milestones)
    .set({ status, updatedAt: new Date() })
    .where(
      and(
        eq(milestones.id, milestoneId),
        eq(milestones.status, "submitted"),
        eq(milestones.revision, revision),
      ),
    )
    .returning({ id: milestones.id });
  return changed.length > 0;
}

/**
 * A rejection of `revision` (the gate failed, or the brand upheld it): the milestone becomes
 * rejected if it is still submitted on that revision; false when it has moved on.
 */
export const markMilestoneRejected = (tx: DbOrTx, milestoneId: string, revision: number) =>
  leaveSubmitted(tx, milestoneId, revision, "rejected");

export type NewAppeal = Pick<
  typeof appeals.$inferInsert,
  "milestoneId" | "dealId" | "revision" | "creatorId" | "reason"
>;

export async function insertAppeal(tx: DbOrTx, values: NewAppeal): Promise<Appeal | undefined> {
  const [appeal] = await tx.insert(appeals).values(values).returning();
  return appeal;
}
