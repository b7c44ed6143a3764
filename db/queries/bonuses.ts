import { and, desc, eq, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import {
  type Deal,
  deals,
  type Milestone,
  milestones,
  type Settlement,
  settlements,
} from "@/db/schema";

// Bonuses (lib/deals/bonuses.ts): a bonus is its own escrow deal, a `deals` row whose
// parent_deal_id names the deal it rewards. Every read filters by the caller as well as by id.

export type BonusRow = { bonus: Deal; milestone: Milestone; settlement: Settlement | null };

const bonusColumns = { bonus: deals, milestone: milestones, settlement: settlements };

/** Who sees a bonus: its brand always; its creator once it is funded (before, it may never be). */
const bonusVisibleTo = (userId: string): SQL =>
  or(eq(deals.brandId, userId), and(eq(deals.creatorId, userId), isNotNull(deals.fundedAt))) as SQL;

/** Where the previous page ended: created_at (ISO, microseconds) and id. */
export type BonusKey = { t: string; id: string };

/** One page of the bonuses of `parentDealId` the user may see, newest first, after `before`. */
export async function listBonusRows(
  db: DbOrTx,
  userId: string,
  parentDealId: string,
  p: { before?: BonusKey; limit: number },
): Promise<Array<BonusRow & { t: string }>> {
  return db
    .select({ ...bonusColumns, t: microsOf })
    .from(deals)
    .innerJoin(milestones, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .where(
      and(
        eq(deals.parentDealId, parentDealId),
        bonusVisibleTo(userId),
        p.before
          ? sql`(${deals.createdAt}, ${deals.id}) < (timestamptz 'epoch' + ${p.before.t}::bigint * interval '1 microsecond', ${p.before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(deals.createdAt), desc(deals.id))
    .limit(p.limit);
}

const microsOf = sql<string>`(extract(epoch from ${deals.createdAt}) * 1000000)::bigint::text`;

/** One bonus of `parentDealId` the user may see. */
export async function findBonusRow(
  db: DbOrTx,
  userId: string,
  parentDealId: string,
  bonusId: string,
): Promise<BonusRow | undefined> {
  const [row] = await db
    .select(bonusColumns)
    .from(deals)
    .innerJoin(milestones, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .where(
      and(eq(deals.id, bonusId), eq(deals.parentDealId, parentDealId), bonusVisibleTo(userId)),
    );
  return row;
}

/** A bonus deal with its milestone and settlement, for the service itself (reconcile). */
export async function findBonusById(db: DbOrTx, bonusId: string): Promise<BonusRow | undefined> {
  const [row] = await db
    .select(bonusColumns)
    .from(deals)
    .innerJoin(milestones, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .where(and(eq(deals.id, bonusId), isNotNull(deals.parentDealId)));
  return row;
}

/** Whether the deal has a paid milestone (a bonus may follow one). */
export async function hasPaidMilestone(db: DbOrTx, dealId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: milestones.id })
    .from(milestones)
    .where(and(eq(milestones.dealId, dealId), eq(milestones.status, "paid")))
    .limit(1);
  return row !== undefined;
}

/** A new bonus deal and its one milestone, in the caller's transaction. */
export async function insertBonusDeal(
  tx: DbOrTx,
  parent: Deal,
  b: { amountUnits: bigint; message: string },
): Promise<{ bonus: Deal; milestone: Milestone }> {
  const [bonus] = await tx
    .insert(deals)
    .values({
      brandId: parent.brandId,
      creatorId: parent.creatorId,
      creatorWallet: parent.creatorWallet,
      title: `Bonus: ${parent.title}`.slice(0, 200),
      platform: parent.platform,
      budgetUnits: b.amountUnits,
      parentDealId: parent.id,
      bonusMessage: b.message,
    })
    .returning();
  if (!bonus) throw new Error("insert returned no bonus");
  const [milestone] = await tx
    .insert(milestones)
    .values({
      dealId: bonus.id,
      position: 0,
      title: "Bonus",
      amountUnits: b.amountUnits,
      requirements: { hashtags: [], mentions: [], links: [], criteria: [] },
    })
    .returning();
  if (!milestone) throw new Error("insert returned no bonus milestone");
  return { bonus, milestone };
}

/**
 * A funded bonus deal whose creator is assigned on-chain becomes `active`, the state a
 * release is paid from (so the payment completes it). No-op in any other state.
 */
export async function activateBonusDeal(db: DbOrTx, bonusId: string): Promise<void> {
  await db
    .update(deals)
    .set({ status: "active", updatedAt: new Date() })
    .where(and(eq(deals.id, bonusId), eq(deals.status, "open"), isNotNull(deals.parentDealId)));
}
