import { and, asc, eq, exists, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { visibleTo } from "@/db/queries/deals";
import { nowIso, placeholder as p, reusable, setTo, timestampAt } from "@/db/reusable";
import {
  appeals,
  chainTransactions,
  changeRequests,
  deals,
  decisions,
  deliverables,
  milestones,
  settlements,
  users,
  verifications,
} from "@/db/schema";

// The settle path's reads (lib/settle/settle.ts): what it starts from, in one statement,
// and the milestone's view for its response, in one round of statements sent together;
// and the link of a settlement to its recorded release (lib/settle/payment.ts).

type Viewer = Parameters<typeof visibleTo>[0];

// These run on every settle: `reusable` statements (built once per process, see
// db/reusable.ts), with placeholders where the values go.
/** visibleTo's condition with the viewer's id and e-mail as placeholders. */
const anyViewer = { id: p("viewerId"), email: p("viewerEmail") } as unknown as Viewer;

const settleStartStatement = reusable((db) =>
  db
    .select({
      milestone: milestones,
      deal: deals,
      settlement: settlements,
      decision: decisions,
      verification: verifications,
    })
    .from(milestones)
    .innerJoin(deals, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .leftJoin(
      decisions,
      and(eq(decisions.milestoneId, milestones.id), eq(decisions.revision, milestones.revision)),
    )
    .leftJoin(
      verifications,
      and(
        eq(verifications.milestoneId, milestones.id),
        eq(verifications.revision, milestones.revision),
      ),
    )
    .where(and(eq(milestones.id, p("milestoneId")), visibleTo(anyViewer)))
    .prepare("settle_start"),
);

const viewStatements = {
  milestone: reusable((db) =>
    db
      .select()
      .from(milestones)
      .where(eq(milestones.id, p("id")))
      .prepare("view_milestone"),
  ),
  deliverables: reusable((db) =>
    db
      .select()
      .from(deliverables)
      .where(eq(deliverables.milestoneId, p("id")))
      .orderBy(asc(deliverables.revision))
      .prepare("view_deliverables"),
  ),
  verifications: reusable((db) =>
    db
      .select()
      .from(verifications)
      .where(eq(verifications.milestoneId, p("id")))
      .orderBy(asc(verifications.revision))
      .prepare("view_verifications"),
  ),
  appeals: reusable((db) =>
    db
      .select()
      .from(appeals)
      .where(eq(appeals.milestoneId, p("id")))
      .prepare("view_appeals"),
  ),
  decisions: reusable((db) =>
    db
      .select({ decision: decisions, name: users.displayName })
      .from(decisions)
      .innerJoin(users, eq(users.id, decisions.deciderId))
      .where(eq(decisions.milestoneId, p("id")))
      .prepare("view_decisions"),
  ),
  changeRequests: reusable((db) =>
    db
      .select()
      .from(changeRequests)
      .where(eq(changeRequests.milestoneId, p("id")))
      .orderBy(asc(changeRequests.revision))
      .prepare("view_change_requests"),
  ),
};

/**
 * A milestone the viewer may see, its deal, its settlement (null: none yet), the brand's
 * decision and the stored verdict on its current revision (null: none). One statement:
 * unique settlement per milestone, unique decision and verdict per milestone revision.
 */
export async function findSettleStart(db: DbOrTx, viewer: Viewer, milestoneId: string) {
  const [row] = await settleStartStatement(db, {
    milestoneId,
    viewerId: viewer.id,
    viewerEmail: viewer.email,
  });
  return row;
}

/**
 * One milestone (already known to be visible to the caller) with its history: every
 * deliverable and verdict by revision, its appeals, its decisions with the decider's
 * name and the brand's change requests. The six statements are sent together.
 */
export async function loadMilestoneView(db: DbOrTx, milestoneId: string) {
  const id = { id: milestoneId };
  const [[milestone], dv, vf, appealRows, decisionRows, cr] = await Promise.all([
    viewStatements.milestone(db, id),
    viewStatements.deliverables(db, id),
    viewStatements.verifications(db, id),
    viewStatements.appeals(db, id),
    viewStatements.decisions(db, id),
    viewStatements.changeRequests(db, id),
  ]);
  return {
    milestone,
    deliverables: dv,
    verifications: vf,
    appeals: appealRows,
    decisions: decisionRows,
    changeRequests: cr,
  };
}

const linkStatement = reusable((db) =>
  db
    .update(settlements)
    .set({
      chainTxId: sql`${p("chainTxId")}::uuid`,
      txHash: setTo("txHash"),
      status: "submitted",
      error: null,
      updatedAt: timestampAt("now"),
    })
    .where(
      and(
        eq(settlements.id, p("settlementId")),
        exists(
          db
            .select({ id: chainTransactions.id })
            .from(chainTransactions)
            .where(eq(chainTransactions.id, p("chainTxId"))),
        ),
      ),
    )
    .returning({ id: settlements.id })
    .prepare("link_settlement"),
);

/**
 * Links a settlement to the chain transaction recorded for its release, in the transaction
 * that records it: `submitted`, with the transaction's hash. Sent together with that row's
 * insert, so it applies only if the row exists by then (the insert may have done nothing).
 */
export async function linkSettlement(
  tx: DbOrTx,
  settlementId: string,
  row: { id: string; hash: string | null },
): Promise<boolean> {
  const linked = await linkStatement(tx, {
    settlementId,
    chainTxId: row.id,
    txHash: row.hash,
    now: nowIso(),
  });
  return linked.length > 0;
}
