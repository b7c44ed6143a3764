import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { type Draft, drafts } from "../schema";

// Drafts of a milestone's post (lib/drafts). Every read names the milestone as well as the
// draft: the caller's access to the milestone is checked first, so the pair is the owner filter.

export type NewDraft = typeof drafts.$inferInsert;

/** The milestone's drafts, newest revision first, below `before` (a revision) when given. */
export async function listDrafts(
  db: DbOrTx,
  milestoneId: string,
  opts: { before?: number; limit: number },
): Promise<Draft[]> {
  return db
    .select()
    .from(drafts)
    .where(
      and(
        eq(drafts.milestoneId, milestoneId),
        opts.before === undefined ? undefined : lt(drafts.revision, opts.before),
      ),
    )
    .orderBy(desc(drafts.revision))
    .limit(opts.limit);
}

export async function findDraft(
  db: DbOrTx,
  milestoneId: string,
  draftId: string,
): Promise<Draft | undefined> {
  const [row] = await db
    .select()
    .from(drafts)
    .where(and(eq(drafts.milestoneId, milestoneId), eq(drafts.id, draftId)));
  return row;
}

/** The latest approved draft of a milestone: what the live post must match. */
export async function latestApprovedDraft(
  db: DbOrTx,
  milestoneId: string,
): Promise<Draft | undefined> {
  const [row] = await db
    .select()
    .from(drafts)
    .where(and(eq(drafts.milestoneId, milestoneId), eq(drafts.status, "approved")))
    .orderBy(desc(drafts.revision))
    .limit(1);
  return row;
}

/** The next revision number (call with the milestone's row locked). */
export async function nextDraftRevision(tx: DbOrTx, milestoneId: string): Promise<number> {
  const [row] = await tx
    .select({ max: sql<number | null>`max(${drafts.revision})` })
    .from(drafts)
    .where(eq(drafts.milestoneId, milestoneId));
  return Number(row?.max ?? 0) + 1;
}

/** Marks the milestone's drafts still awaiting the brand as replaced by a newer revision. */
export async function supersedeSubmittedDrafts(tx: DbOrTx, milestoneId: string): Promise<void> {
  await tx
    .update(drafts)
    .set({ status: "superseded" })
    .where(and(eq(drafts.milestoneId, milestoneId), eq(drafts.status, "submitted")));
}

export async function insertDraft(tx: DbOrTx, values: NewDraft): Promise<Draft> {
  const [row] = await tx.insert(drafts).values(values).returning();
  if (!row) throw new Error("insert returned no draft");
  return row;
}

/**
 * The brand's answer to a draft still `submitted`: a conditional update, so of concurrent
 * answers exactly one changes the row (and records the event); the others get undefined.
 */
export async function reviewSubmittedDraft(
  tx: DbOrTx,
  milestoneId: string,
  draftId: string,
  review: { status: "approved" | "changes_requested"; reviewedBy: string; message: string | null },
): Promise<Draft | undefined> {
  const [row] = await tx
    .update(drafts)
    .set({
      status: review.status,
      reviewedBy: review.reviewedBy,
      reviewMessage: review.message,
      reviewedAt: sql`now()`,
    })
    .where(
      and(
        eq(drafts.milestoneId, milestoneId),
        eq(drafts.id, draftId),
        eq(drafts.status, "submitted"),
      ),
    )
    .returning();
  return row;
}
