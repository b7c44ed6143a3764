import { and, asc, eq, exists } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { visibleTo } from "@/db/queries/deals";
import {
  appeals,
  chainTransactions,
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

/**
 * A milestone the viewer may see, its deal, its settlement (null: none yet) and the brand's
 * decision on its current revision (null: none). One statement: unique settlement per
 * milestone, unique decision per milestone revision.
 */
export async function findSettleStart(db: DbOrTx, viewer: Viewer, milestoneId: string) {
  const [row] = await db
    .select({ milestone: milestones, deal: deals, settlement: settlements, decision: decisions })
    .from(milestones)
    .innerJoin(deals, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .leftJoin(
      decisions,
      and(eq(decisions.milestoneId, milestones.id), eq(decisions.revision, milestones.revision)),
    )
    .where(and(eq(milestones.id, milestoneId), visibleTo(viewer)));
  return row;
}

/**
 * One milestone (already known to be visible to the caller) with its history: every
 * deliverable and verdict by revision, its appeals and its decisions with the decider's
 * name. The five statements are sent together.
 */
export async function loadMilestoneView(db: DbOrTx, milestoneId: string) {
  const [[milestone], dv, vf, appealRows, decisionRows] = await Promise.all([
    db.select().from(milestones).where(eq(milestones.id, milestoneId)),
    db
      .select()
      .from(deliverables)
      .where(eq(deliverables.milestoneId, milestoneId))
      .orderBy(asc(deliverables.revision)),
    db
      .select()
      .from(verifications)
      .where(eq(verifications.milestoneId, milestoneId))
      .orderBy(asc(verifications.revision)),
    db.select().from(appeals).where(eq(appeals.milestoneId, milestoneId)),
    db
      .select({ decision: decisions, name: users.displayName })
      .from(decisions)
      .innerJoin(users, eq(users.id, decisions.deciderId))
      .where(eq(decisions.milestoneId, milestoneId)),
  ]);
  return {
    milestone,
    deliverables: dv,
    verifications: vf,
    appeals: appealRows,
    decisions: decisionRows,
  };
}

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
  const linked = await tx
    .update(settlements)
    .set({
      chainTxId: row.id,
      txHash: row.hash,
      status: "submitted",
      error: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(settlements.id, settlementId),
        exists(
          tx
            .select({ id: chainTransactions.id })
            .from(chainTransactions)
            .where(eq(chainTransactions.id, row.id)),
        ),
      ),
    )
    .returning({ id: settlements.id });
  return linked.length > 0;
}
