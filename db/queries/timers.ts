import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { dealEvents, deals, deliverables, milestones } from "@/db/schema";

// The deal timers (lib/settle/timers.ts), run by the reconcile routine across every active
// deal — no person asks, so no owner to filter by: a review window that ran out and a
// milestone past its due date with nothing delivered, each announced once per revision.

export type TimerEventType = "review_window_elapsed" | "overdue";

/** A milestone whose timer ran out, with the revision it ran out on. */
export type TimedMilestone = { id: string; dealId: string; revision: number };

const noEventYet = (type: TimerEventType) =>
  sql`not exists (select 1 from ${dealEvents} e where e.milestone_id = ${milestones.id}
      and e.type = ${type} and (e.data->>'revision')::int = ${milestones.revision})`;

/** Submitted revisions of active deals whose review window ended by `at`, not yet announced (500 at most). */
export function listElapsedReviewWindows(db: DbOrTx, at: Date): Promise<TimedMilestone[]> {
  return db
    .select({ id: milestones.id, dealId: milestones.dealId, revision: milestones.revision })
    .from(milestones)
    .innerJoin(deals, eq(deals.id, milestones.dealId))
    .innerJoin(
      deliverables,
      and(
        eq(deliverables.milestoneId, milestones.id),
        eq(deliverables.revision, milestones.revision),
      ),
    )
    .where(
      and(
        eq(deals.status, "active"),
        eq(milestones.status, "submitted"),
        // An ISO string: postgres.js does not bind a JS Date inside raw SQL (PGlite does).
        sql`${deliverables.submittedAt} + make_interval(secs => ${deals.reviewWindowSeconds}) <= ${at.toISOString()}::timestamptz`,
        noEventYet("review_window_elapsed"),
      ),
    )
    .limit(500);
}

/**
 * Pending milestones of active deals due by `at` with nothing ever submitted (one sent back
 * for changes is not overdue: lib/settle/review.ts isOverdue), not yet announced (500 at most).
 */
export function listOverdueMilestones(db: DbOrTx, at: Date): Promise<TimedMilestone[]> {
  return db
    .select({ id: milestones.id, dealId: milestones.dealId, revision: milestones.revision })
    .from(milestones)
    .innerJoin(deals, eq(deals.id, milestones.dealId))
    .where(
      and(
        eq(deals.status, "active"),
        eq(milestones.status, "pending"),
        eq(milestones.revision, 0),
        isNotNull(milestones.dueAt),
        lte(milestones.dueAt, at),
        noEventYet("overdue"),
      ),
    )
    .limit(500);
}

/**
 * Locks the milestone (FOR UPDATE SKIP LOCKED: a run that finds it locked leaves it to the
 * run holding it) if it is still at `status` and `revision` with no `type` event for that
 * revision; false when it is not (or is locked elsewhere).
 */
export async function lockUnannouncedMilestone(
  tx: DbOrTx,
  m: Pick<TimedMilestone, "id" | "revision">,
  type: TimerEventType,
  status: "submitted" | "pending",
): Promise<boolean> {
  const [locked] = await tx
    .select({ id: milestones.id })
    .from(milestones)
    .where(
      and(
        eq(milestones.id, m.id),
        eq(milestones.status, status),
        eq(milestones.revision, m.revision),
        noEventYet(type),
      ),
    )
    .for("update", { skipLocked: true });
  return locked !== undefined;
}

/** Whether the milestone's current revision still has no `type` event (read in the caller's transaction). */
export async function hasNoTimerEventYet(
  tx: DbOrTx,
  milestoneId: string,
  type: TimerEventType,
): Promise<boolean> {
  const [again] = await tx
    .select({ id: milestones.id })
    .from(milestones)
    .where(and(eq(milestones.id, milestoneId), noEventYet(type)));
  return again !== undefined;
}
