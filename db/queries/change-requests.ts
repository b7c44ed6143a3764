import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { leaveSubmitted } from "@/db/queries/decisions";
import { type ChangeRequest, changeRequests } from "@/db/schema";

// The brand's change requests (lib/settle/change-requests.ts), by milestone id: callers reach
// them through a milestone whose deal they checked the caller is a party of.

export type NewChangeRequest = Pick<
  typeof changeRequests.$inferInsert,
  "milestoneId" | "dealId" | "revision" | "requestedBy" | "message"
>;

/** Throws a unique violation (change_requests_milestone_revision_key) on a second one per revision. */
export async function insertChangeRequest(
  tx: DbOrTx,
  values: NewChangeRequest,
): Promise<ChangeRequest | undefined> {
  const [row] = await tx.insert(changeRequests).values(values).returning();
  return row;
}

/**
 * The submitted `revision` goes back to the creator: the milestone becomes `pending` again
 * (its revision stays; the next submission takes the next one). False when it is no longer
 * submitted on that revision.
 */
export const sendBackForChanges = (tx: DbOrTx, milestoneId: string, revision: number) =>
  leaveSubmitted(tx, milestoneId, revision, "pending");

export async function findChangeRequest(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<ChangeRequest | undefined> {
  const [row] = await db
    .select()
    .from(changeRequests)
    .where(and(eq(changeRequests.milestoneId, milestoneId), eq(changeRequests.revision, revision)));
  return row;
}
