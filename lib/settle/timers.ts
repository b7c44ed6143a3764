import type { Db } from "@/db/client";
import {
  hasNoTimerEventYet,
  listElapsedReviewWindows,
  listOverdueMilestones,
  lockUnannouncedMilestone,
  type TimedMilestone,
  type TimerEventType,
} from "@/db/queries/timers";
import { now } from "@/lib/clock";
import { recordEvent } from "@/lib/events/events";
import type { ReconcileReport } from "@/lib/settle/reconcile";

// The deal timers, run by the reconcile routine (and so by the cron route), never by a
// browser: a review window that ran out (the creator may now settle on their own) and a
// milestone past its due date with nothing delivered (the brand may take it back). Each
// is announced once per revision with an event — which notifies the parties — under the
// milestone's row lock, so concurrent runs announce it once.

/** Its part of the reconcile answer (lib/settle/reconcile.ts reconcileResponse). */
export type TimerReport = NonNullable<ReconcileReport["timers"]>;

export async function checkTimers(db: Db, at: Date = now()): Promise<TimerReport> {
  const report: TimerReport = { reviewWindowsElapsed: 0, overdue: 0 };
  const elapsed = await listElapsedReviewWindows(db, at);
  const overdue = await listOverdueMilestones(db, at);

  const announce = async (
    m: TimedMilestone,
    type: TimerEventType,
    status: "submitted" | "pending",
  ) =>
    db.transaction(async (tx) => {
      if (!(await lockUnannouncedMilestone(tx, m, type, status))) return false;
      // Re-checked under the lock: a concurrent run that announced first committed its event.
      if (!(await hasNoTimerEventYet(tx, m.id, type))) return false;
      await recordEvent(tx, {
        dealId: m.dealId,
        milestoneId: m.id,
        type,
        data: { revision: m.revision, at: at.toISOString() },
      });
      return true;
    });

  for (const m of elapsed)
    if (await announce(m, "review_window_elapsed", "submitted")) report.reviewWindowsElapsed++;
  for (const m of overdue) if (await announce(m, "overdue", "pending")) report.overdue++;
  return report;
}
