import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import {
  type Deal,
  type Deliverable,
  deals,
  deliverables,
  type Milestone,
  milestones,
  type Settlement,
  settlements,
  type User,
  users,
  type Verification,
  verifications,
} from "@/db/schema";

// Deal and milestone reads. Every lookup by id also filters by who may see it, so a
// caller who is no party to a deal cannot tell it exists.

type Viewer = Pick<User, "id" | "email">;

/** An open deal anyone may take: no creator yet, and no invite or an invite to this viewer. */
function openTo(viewer: Viewer): SQL {
  return and(
    isNull(deals.creatorId),
    eq(deals.status, "open"),
    or(isNull(deals.inviteEmail), sql`lower(${deals.inviteEmail}) = lower(${viewer.email})`),
  ) as SQL;
}

/** The brand, the creator, or — while the deal is open — any creator it is offered to. */
export function visibleTo(viewer: Viewer): SQL {
  return or(eq(deals.brandId, viewer.id), eq(deals.creatorId, viewer.id), openTo(viewer)) as SQL;
}

export async function findVisibleDeal(db: DbOrTx, viewer: Viewer, dealId: string) {
  const [deal] = await db
    .select()
    .from(deals)
    .where(and(eq(deals.id, dealId), visibleTo(viewer)));
  return deal;
}

/** A deal the viewer may try to take: visible to them, or a public offer already taken. */
export async function findAcceptableDeal(db: DbOrTx, viewer: Viewer, dealId: string) {
  const [deal] = await db
    .select()
    .from(deals)
    .where(
      and(
        eq(deals.id, dealId),
        or(
          visibleTo(viewer),
          // A taken public offer (so the loser of a race learns why); never an unfunded deal.
          and(isNull(deals.inviteEmail), sql`${deals.status} <> 'unfunded'`),
        ),
      ),
    );
  return deal;
}

/** The caller's own deals, as brand or as creator, newest first. */
export async function listPartyDeals(db: DbOrTx, viewer: Viewer) {
  return db
    .select()
    .from(deals)
    .where(or(eq(deals.brandId, viewer.id), eq(deals.creatorId, viewer.id)))
    .orderBy(desc(deals.createdAt), asc(deals.title));
}

/** Open deals a creator could take (not their own), newest first. */
export async function listOpenDeals(db: DbOrTx, viewer: Viewer) {
  return db
    .select()
    .from(deals)
    .where(and(openTo(viewer), sql`${deals.brandId} <> ${viewer.id}`))
    .orderBy(desc(deals.createdAt), asc(deals.title));
}

/**
 * A deal's milestones in order (position = the index in the escrow). No viewer filter: for
 * callers that already hold the deal they checked access to, or the service itself.
 */
export async function listDealMilestones(db: DbOrTx, dealId: string): Promise<Milestone[]> {
  return db
    .select()
    .from(milestones)
    .where(eq(milestones.dealId, dealId))
    .orderBy(asc(milestones.position));
}

/** A milestone together with its deal, when the viewer may see the deal. */
export async function findVisibleMilestone(db: DbOrTx, viewer: Viewer, milestoneId: string) {
  const [row] = await db
    .select({ milestone: milestones, deal: deals })
    .from(milestones)
    .innerJoin(deals, eq(milestones.dealId, deals.id))
    .where(and(eq(milestones.id, milestoneId), visibleTo(viewer)));
  return row;
}

export type DealDetails = {
  milestones: Milestone[];
  deliverables: Deliverable[];
  verifications: Verification[];
  settlements: Settlement[];
  parties: Pick<User, "id" | "email" | "walletAddress">[];
};

/** Everything needed to render a set of deals, in five queries whatever their number. */
export async function loadDealDetails(db: DbOrTx, dealList: Deal[]): Promise<DealDetails> {
  const dealIds = dealList.map((d) => d.id);
  if (dealIds.length === 0)
    return { milestones: [], deliverables: [], verifications: [], settlements: [], parties: [] };
  const ms = await db
    .select()
    .from(milestones)
    .where(inArray(milestones.dealId, dealIds))
    .orderBy(asc(milestones.position));
  const milestoneIds = ms.map((m) => m.id);
  const partyIds = [
    ...new Set(dealList.flatMap((d) => (d.creatorId ? [d.brandId, d.creatorId] : [d.brandId]))),
  ];
  const [dv, vf, st, parties] = await Promise.all([
    milestoneIds.length
      ? db
          .select()
          .from(deliverables)
          .where(inArray(deliverables.milestoneId, milestoneIds))
          .orderBy(asc(deliverables.revision))
      : [],
    milestoneIds.length
      ? db
          .select()
          .from(verifications)
          .where(inArray(verifications.milestoneId, milestoneIds))
          .orderBy(asc(verifications.revision))
      : [],
    milestoneIds.length
      ? db.select().from(settlements).where(inArray(settlements.milestoneId, milestoneIds))
      : [],
    db
      .select({ id: users.id, email: users.email, walletAddress: users.walletAddress })
      .from(users)
      .where(inArray(users.id, partyIds)),
  ]);
  return { milestones: ms, deliverables: dv, verifications: vf, settlements: st, parties };
}
