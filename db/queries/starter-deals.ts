import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type Deal, deals, milestones, type NewDeal, type NewMilestone } from "@/db/schema";

// The starter deals a demo brand gets (lib/deals/starter.ts): always the brand's own, by
// its id; the unique (brand_id, starter_key) index keeps each one single.

export type StarterDealRow = Pick<
  NewDeal,
  "brandId" | "starterKey" | "title" | "description" | "platform" | "budgetUnits"
>;

/**
 * Inserts the starter deals the brand does not have yet (ON CONFLICT (brand_id, starter_key)
 * DO NOTHING: a concurrent call's rows win); returns only the rows actually inserted.
 */
export function insertStarterDeals(
  tx: DbOrTx,
  rows: StarterDealRow[],
): Promise<{ id: string; starterKey: string | null }[]> {
  return tx
    .insert(deals)
    .values(rows)
    .onConflictDoNothing({ target: [deals.brandId, deals.starterKey] })
    .returning({ id: deals.id, starterKey: deals.starterKey });
}

export type StarterMilestoneRow = Pick<
  NewMilestone,
  "dealId" | "position" | "title" | "amountUnits" | "requirements"
>;

/** The milestones of just-inserted starter deals (at least one row). */
export async function insertStarterMilestones(
  tx: DbOrTx,
  rows: StarterMilestoneRow[],
): Promise<void> {
  await tx.insert(milestones).values(rows);
}

/** The brand's starter deals with these keys, oldest first (then by title). */
export function listStarterDeals(db: DbOrTx, brandId: string, keys: string[]): Promise<Deal[]> {
  return db
    .select()
    .from(deals)
    .where(and(eq(deals.brandId, brandId), inArray(deals.starterKey, keys)))
    .orderBy(asc(deals.createdAt), asc(deals.title));
}
