import { and, asc, desc, eq, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { mergedMetadata } from "@/db/queries/metadata";
import {
  type ChangeRequest,
  changeRequests,
  type Deal,
  type Deliverable,
  dealDeposits,
  deals,
  deliverables,
  type Milestone,
  milestones,
  type NewDeal,
  type NewMilestone,
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
  return or(
    eq(deals.brandId, viewer.id),
    // A bonus's escrow deal (parent_deal_id set) is reached by its creator only through the
    // bonus routes (db/queries/bonuses.ts): nothing can be submitted or settled on it.
    and(eq(deals.creatorId, viewer.id), isNull(deals.parentDealId)),
    openTo(viewer),
  ) as SQL;
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
          // A taken public offer (so the loser of a race learns why); never an unfunded deal,
          // and never a bonus's escrow deal (reached through the bonus routes only).
          and(
            isNull(deals.inviteEmail),
            isNull(deals.parentDealId),
            sql`${deals.status} <> 'unfunded'`,
          ),
        ),
      ),
    );
  return deal;
}

export type DealSort = "newest" | "oldest" | "budget";
/** Where the previous page ended: created_at in epoch microseconds, id, budget (sort=budget). */
export type DealKey = { t: string; id: string; b?: string };
export type DealListFilter = {
  status?: string;
  platform?: string;
  search?: string;
  /** Only deals whose metadata holds exactly this pair (deals_metadata_idx). */
  metadata?: { key: string; value: string };
  sort: DealSort;
  after?: DealKey;
  limit: number;
};
export type KeyedDeal = Deal & { key: DealKey };

/** `%`, `_` and `\` taken literally inside an ILIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const createdMicros = sql<string>`(extract(epoch from ${deals.createdAt}) * 1000000)::bigint::text`;
const microsToTimestamp = (t: string) =>
  sql`(timestamptz 'epoch' + ${t}::bigint * interval '1 microsecond')`;

/** Rows after `after` in the list's order, and that order. */
function keyset(f: DealListFilter): { after?: SQL; order: SQL[] } {
  const k = f.after;
  if (f.sort === "oldest")
    return {
      after: k
        ? sql`(${deals.createdAt}, ${deals.id}) > (${microsToTimestamp(k.t)}, ${k.id}::uuid)`
        : undefined,
      order: [asc(deals.createdAt), asc(deals.id)],
    };
  if (f.sort === "budget")
    return {
      after: k
        ? sql`(${deals.budgetUnits}, ${deals.createdAt}, ${deals.id}) < (${k.b ?? "0"}::bigint, ${microsToTimestamp(k.t)}, ${k.id}::uuid)`
        : undefined,
      order: [desc(deals.budgetUnits), desc(deals.createdAt), desc(deals.id)],
    };
  return {
    after: k
      ? sql`(${deals.createdAt}, ${deals.id}) < (${microsToTimestamp(k.t)}, ${k.id}::uuid)`
      : undefined,
    order: [desc(deals.createdAt), desc(deals.id)],
  };
}

/** Compares two listed deals in the list's order (negative: `a` comes first). */
function compareKeys(sort: DealSort, a: DealKey, b: DealKey): number {
  const cmp = (x: bigint | string, y: bigint | string) => (x < y ? -1 : x > y ? 1 : 0);
  const byTime = cmp(BigInt(a.t), BigInt(b.t)) || cmp(a.id, b.id);
  if (sort === "oldest") return byTime;
  if (sort === "budget") return -(cmp(BigInt(a.b ?? "0"), BigInt(b.b ?? "0")) || byTime);
  return -byTime;
}

async function keyedPage(db: DbOrTx, where: SQL, f: DealListFilter): Promise<KeyedDeal[]> {
  const { after, order } = keyset(f);
  const needle = f.search ? `%${likeEscape(f.search)}%` : null;
  const rows = await db
    .select({ deal: deals, t: createdMicros })
    .from(deals)
    .where(
      and(
        where,
        after,
        // Bonuses are listed on the deal they reward (GET /api/deals/:id/bonuses).
        isNull(deals.parentDealId),
        f.status ? eq(deals.status, f.status as Deal["status"]) : undefined,
        f.platform ? eq(deals.platform, f.platform) : undefined,
        needle
          ? or(sql`${deals.title} ilike ${needle}`, sql`${deals.description} ilike ${needle}`)
          : undefined,
        f.metadata
          ? sql`${deals.metadata} @> ${JSON.stringify({ [f.metadata.key]: f.metadata.value })}::jsonb`
          : undefined,
      ),
    )
    .orderBy(...order)
    .limit(f.limit);
  return rows.map(({ deal, t }) => ({
    ...deal,
    key: { t, id: deal.id, ...(f.sort === "budget" ? { b: deal.budgetUnits.toString() } : {}) },
  }));
}

/**
 * One page (`limit` rows) of the viewer's own deals, as brand or as creator, in the list's
 * order after `after`. Each side is read along its own index (deals_brand_created_idx,
 * deals_creator_created_idx) up to `limit` rows and the two are merged, so a page costs
 * the same at 10 deals or 100,000.
 */
export async function listPartyDealsPage(
  db: DbOrTx,
  viewer: Viewer,
  f: DealListFilter,
): Promise<KeyedDeal[]> {
  const [asBrand, asCreator] = await Promise.all([
    keyedPage(db, eq(deals.brandId, viewer.id), f),
    keyedPage(db, and(eq(deals.creatorId, viewer.id), ne(deals.brandId, viewer.id)) as SQL, f),
  ]);
  return [...asBrand, ...asCreator]
    .sort((a, b) => compareKeys(f.sort, a.key, b.key))
    .slice(0, f.limit);
}

/** One page of the open deals a creator could take (not their own), along deals_status_created_idx. */
export async function listOpenDealsPage(
  db: DbOrTx,
  viewer: Viewer,
  f: DealListFilter,
): Promise<KeyedDeal[]> {
  return keyedPage(db, and(openTo(viewer), ne(deals.brandId, viewer.id)) as SQL, {
    ...f,
    status: f.status && f.status !== "open" ? "__none__" : undefined,
  });
}

/**
 * Whether a deal with this id exists, whoever's it is: only for the deal page's signed-out
 * visitor, who is asked to sign in (deal ids are unguessable) rather than shown a 404.
 */
export async function dealExists(db: DbOrTx, dealId: string): Promise<boolean> {
  const [row] = await db.select({ id: deals.id }).from(deals).where(eq(deals.id, dealId)).limit(1);
  return row !== undefined;
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
  /** The brand's change requests, by revision (lib/settle/change-requests.ts). */
  changeRequests: ChangeRequest[];
  parties: Pick<User, "id" | "email" | "walletAddress" | "displayName">[];
  /**
   * The deposit addresses that funded deals (the escrow deal's funder is then the forwarder,
   * and what is not released goes to the refund address the brand named for it).
   */
  fundingDeposits: { dealId: string; address: string; refundAddress: string }[];
};

/** Ids bound as one array parameter (`= any($1::uuid[])`), not one parameter per id. */
const anyId = (ids: string[]) => sql`any(${`{${ids.join(",")}}`}::uuid[])`;

/** Everything needed to render a set of deals, in seven queries whatever their number. */
export async function loadDealDetails(db: DbOrTx, dealList: Deal[]): Promise<DealDetails> {
  const dealIds = dealList.map((d) => d.id);
  if (dealIds.length === 0)
    return {
      milestones: [],
      deliverables: [],
      verifications: [],
      settlements: [],
      changeRequests: [],
      parties: [],
      fundingDeposits: [],
    };
  const ms = await db
    .select()
    .from(milestones)
    .where(sql`${milestones.dealId} = ${anyId(dealIds)}`)
    .orderBy(asc(milestones.position));
  const milestoneIds = ms.map((m) => m.id);
  const partyIds = [
    ...new Set(dealList.flatMap((d) => (d.creatorId ? [d.brandId, d.creatorId] : [d.brandId]))),
  ];
  const fundedIds = dealList.filter((d) => d.brandWallet).map((d) => d.id);
  const [dv, vf, st, cr, parties, fundingDeposits] = await Promise.all([
    milestoneIds.length
      ? db
          .select()
          .from(deliverables)
          .where(sql`${deliverables.milestoneId} = ${anyId(milestoneIds)}`)
          .orderBy(asc(deliverables.revision))
      : [],
    milestoneIds.length
      ? db
          .select()
          .from(verifications)
          .where(sql`${verifications.milestoneId} = ${anyId(milestoneIds)}`)
          .orderBy(asc(verifications.revision))
      : [],
    milestoneIds.length
      ? db
          .select()
          .from(settlements)
          .where(sql`${settlements.milestoneId} = ${anyId(milestoneIds)}`)
      : [],
    milestoneIds.length
      ? db
          .select()
          .from(changeRequests)
          .where(sql`${changeRequests.milestoneId} = ${anyId(milestoneIds)}`)
          .orderBy(asc(changeRequests.revision))
      : [],
    db
      .select({
        id: users.id,
        email: users.email,
        walletAddress: users.walletAddress,
        displayName: users.displayName,
      })
      .from(users)
      .where(sql`${users.id} = ${anyId(partyIds)}`),
    fundedIds.length
      ? db
          .select({
            dealId: dealDeposits.dealId,
            address: dealDeposits.address,
            refundAddress: dealDeposits.refundAddress,
          })
          .from(dealDeposits)
          .innerJoin(deals, eq(deals.id, dealDeposits.dealId))
          .where(
            and(
              sql`${dealDeposits.dealId} = ${anyId(fundedIds)}`,
              sql`lower(${dealDeposits.address}) = lower(${deals.brandWallet})`,
            ),
          )
      : [],
  ]);
  return {
    milestones: ms,
    deliverables: dv,
    verifications: vf,
    settlements: st,
    changeRequests: cr,
    parties,
    fundingDeposits,
  };
}

// ── Editing a deal nobody has taken (lib/deals/edit.ts) ──────────────────────────────────

/**
 * The brand's own deal, its row locked (FOR NO KEY UPDATE, as every deal write takes) until
 * the transaction ends: a take, a funding or a cancel waits for the edit, and the edit sees
 * theirs. Undefined when the deal is not this brand's.
 */
export async function lockBrandDeal(
  tx: DbOrTx,
  brandId: string,
  dealId: string,
): Promise<Deal | undefined> {
  const [deal] = await tx
    .select()
    .from(deals)
    .where(and(eq(deals.id, dealId), eq(deals.brandId, brandId)))
    .for("no key update");
  return deal;
}

export type DealFieldsPatch = Partial<
  Pick<
    Deal,
    | "title"
    | "description"
    | "platform"
    | "minScoreBps"
    | "autoSettleConfidenceBps"
    | "autoSettleConfidenceBps"
    | "inviteEmail"
    | "deadlineAt"
    | "reviewWindowSeconds"
    | "disclosureRequired"
    | "disclosureOffReason"
    | "budgetUnits"
  >
>;

export async function updateDealFields(
  tx: DbOrTx,
  brandId: string,
  dealId: string,
  patch: DealFieldsPatch,
): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ ...patch, termsVersion: sql`${deals.termsVersion} + 1`, updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), eq(deals.brandId, brandId)))
    .returning();
  return row;
}

/** Merges metadata into the brand's deal (any status); undefined when it is not theirs. */
export async function updateDealMetadata(
  tx: DbOrTx,
  brandId: string,
  dealId: string,
  patch: Record<string, string>,
): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({ metadata: mergedMetadata(deals.metadata, patch), updatedAt: new Date() })
    .where(and(eq(deals.id, dealId), eq(deals.brandId, brandId)))
    .returning();
  return row;
}

/** Merges metadata into a milestone of the brand's deal; undefined when it is not theirs. */
export async function updateMilestoneMetadata(
  tx: DbOrTx,
  brandId: string,
  milestoneId: string,
  patch: Record<string, string>,
): Promise<Milestone | undefined> {
  const [row] = await tx
    .update(milestones)
    .set({ metadata: mergedMetadata(milestones.metadata, patch), updatedAt: new Date() })
    .where(
      and(
        eq(milestones.id, milestoneId),
        sql`exists (select 1 from deals d where d.id = ${milestones.dealId} and d.brand_id = ${brandId})`,
      ),
    )
    .returning();
  return row;
}

export type MilestoneTerms = Pick<Milestone, "title" | "amountUnits" | "requirements" | "dueAt">;

/**
 * Makes the deal's milestones exactly `list`, in order: the milestone at each position is
 * updated in place (its id stays), positions past the new end are deleted, new ones added.
 * Only for a deal nobody has taken: nothing references its milestones yet.
 */
export async function replaceDealMilestones(
  tx: DbOrTx,
  dealId: string,
  current: Milestone[],
  list: MilestoneTerms[],
): Promise<void> {
  for (const [position, m] of list.entries()) {
    const existing = current.find((c) => c.position === position);
    if (existing)
      await tx
        .update(milestones)
        .set({ ...m, updatedAt: new Date() })
        .where(and(eq(milestones.id, existing.id), eq(milestones.dealId, dealId)));
    else await tx.insert(milestones).values({ dealId, position, ...m });
  }
  await tx
    .delete(milestones)
    .where(and(eq(milestones.dealId, dealId), sql`${milestones.position} >= ${list.length}`));
}

// ── Creating and taking a deal (lib/deals/deals.ts) ──────────────────────────────────────

export type NewDealRow = Pick<
  NewDeal,
  | "brandId"
  | "title"
  | "description"
  | "platform"
  | "minScoreBps"
  | "autoSettleConfidenceBps"
  | "budgetUnits"
  | "deadlineAt"
  | "reviewWindowSeconds"
  | "disclosureRequired"
  | "disclosureOffReason"
  | "inviteEmail"
  | "metadata"
>;

export async function insertDeal(tx: DbOrTx, values: NewDealRow): Promise<Deal | undefined> {
  const [created] = await tx.insert(deals).values(values).returning();
  return created;
}

export type NewMilestoneRow = Pick<
  NewMilestone,
  "dealId" | "position" | "title" | "amountUnits" | "requirements" | "dueAt" | "metadata"
>;

/** A new deal's milestones (at least one row). */
export async function insertDealMilestones(tx: DbOrTx, rows: NewMilestoneRow[]): Promise<void> {
  await tx.insert(milestones).values(rows);
}

/**
 * A creator takes an open deal offered to them: one conditional UPDATE, so of racing
 * creators only the first statement finds the row open. With `termsVersion`, only while the
 * deal still has the terms of that version (an edit committed since: nothing taken).
 * Undefined when nothing was taken.
 */
export async function takeOpenDeal(
  tx: DbOrTx,
  creator: Viewer,
  dealId: string,
  take: { creatorWallet: string; termsVersion?: number },
): Promise<Deal | undefined> {
  const [row] = await tx
    .update(deals)
    .set({
      creatorId: creator.id,
      creatorWallet: take.creatorWallet,
      status: "active",
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(deals.id, dealId),
        openTo(creator),
        take.termsVersion === undefined ? undefined : eq(deals.termsVersion, take.termsVersion),
      ),
    )
    .returning();
  return row;
}

// ── Submitting a deliverable (lib/deals/milestones.ts) ───────────────────────────────────

/**
 * The deal's milestone, its row locked FOR NO KEY UPDATE (as every milestone write takes)
 * until the transaction ends: two submissions cannot take the same revision number.
 */
export async function lockDealMilestone(
  tx: DbOrTx,
  dealId: string,
  milestoneId: string,
): Promise<Milestone | undefined> {
  const [row] = await tx
    .select()
    .from(milestones)
    .where(and(eq(milestones.id, milestoneId), eq(milestones.dealId, dealId)))
    .for("no key update");
  return row;
}

export type NewDeliverableRow = Pick<
  typeof deliverables.$inferInsert,
  "milestoneId" | "revision" | "url" | "text" | "note" | "submittedBy"
>;

export async function insertDeliverable(tx: DbOrTx, values: NewDeliverableRow): Promise<void> {
  await tx.insert(deliverables).values(values);
}

/** A pending or rejected milestone becomes submitted at `revision` (any other status stays). */
export async function markMilestoneSubmitted(
  tx: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<void> {
  await tx
    .update(milestones)
    .set({ status: "submitted", revision, updatedAt: new Date() })
    .where(
      and(eq(milestones.id, milestoneId), inArray(milestones.status, ["pending", "rejected"])),
    );
}
