import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dealEvents, deals, deliverables, milestones } from "@/db/schema";
import { now } from "@/lib/clock";
import { recordEvent } from "@/lib/events/events";

// The deal timers, run by the reconcile routine (and so by the cron route), never by a
// browser: a review window that ran out (the creator may now settle on their own) and a
// milestone past its due date with nothing delivered (the brand may take it back). Each
// is announced once per revision with an event — which notifies the parties — under the
// milestone's row lock, so concurrent runs announce it once.

export type TimerReport = { reviewWindowsElapsed: number; overdue: number };

const noEventYet = (type: "review_window_elapsed" | "overdue") =>
  sql`not exists (select 1 from ${dealEvents} e where e.milestone_id = ${milestones.id}
      and e.type = ${type} and (e.data->>'revision')::int = ${milestones.revision})`;

export async function checkTimers(db: Db, at: Date = now()): Promise<TimerReport> {
  const report: TimerReport = { reviewWindowsElapsed: 0, overdue: 0 };
  const elapsed = await db
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
  const overdue = await db
    .select({ id: milestones.id, dealId: milestones.dealId, revision: milestones.revision })
    .from(milestones)
    .innerJoin(deals, eq(deals.id, milestones.dealId))
    .where(
      and(
        eq(deals.status, "active"),
        eq(milestones.status, "pending"),
        isNotNull(milestones.dueAt),
        lte(milestones.dueAt, at),
        noEventYet("overdue"),
      ),
    )
    .limit(500);

  const announce = async (
    m: { id: string; dealId: string; revision: number },
    type: "review_window_elapsed" | "overdue",
    status: "submitted" | "pending",
  ) =>
    db.transaction(async (tx) => {
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
      if (!locked) return false;
      // Re-checked under the lock: a concurrent run that announced first committed its event.
      const [again] = await tx
        .select({ id: milestones.id })
        .from(milestones)
        .where(and(eq(milestones.id, m.id), noEventYet(type)));
      if (!again) return false;
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
