import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import {
  type DealListFilter,
  type DealSort,
  dealExists,
  findAcceptableDeal,
  findVisibleDeal,
  insertDeal,
  insertDealMilestones,
  listOpenDealsPage,
  listPartyDealsPage,
  loadDealDetails,
  takeOpenDeal,
} from "@/db/queries/deals";
import { getUserById } from "@/db/queries/users";
import type { Deal, ProfileType, User } from "@/db/schema";
import { nextCursor } from "@/lib/api/fields";
import type { CreateDealInput } from "@/lib/deals/schemas";
import { type DealJson, dealJson, dealSchema } from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { assignCreatorOnChain } from "@/lib/escrow/deals";
import { recordEvent } from "@/lib/events/events";
import { scoreToBps } from "@/lib/money";
import { decodeCursor, encodeCursor } from "@/lib/pagination";
import { type DealDetailJson, withReviews } from "@/lib/settle/review";

// Deals: a brand creates one with milestones; a creator takes an open one. Access follows
// ownership (brand or creator of the deal); the active role only gates what one may start.

export type Caller = Pick<User, "id" | "email" | "profileType">;

const roleName: Record<ProfileType, string> = { creator: "creator", organization: "brand" };

export function requireRole(caller: Caller, role: ProfileType): void {
  if (caller.profileType !== role)
    throw new AppError(
      "wrong_role",
      `Switch to the ${roleName[role]} role to do this (you are signed in as a ${roleName[caller.profileType]}).`,
    );
}

export async function renderDeals(db: DbOrTx, list: Deal[]): Promise<DealJson[]> {
  const details = await loadDealDetails(db, list);
  return list.map((d) => dealJson(d, details));
}

export async function renderDeal(db: DbOrTx, deal: Deal): Promise<DealJson> {
  const [json] = await renderDeals(db, [deal]);
  if (!json) throw new Error("renderDeals dropped a deal");
  return json;
}

const DEFAULT_DEADLINE_DAYS = 30;

function badDeadline(path: string[], message: string): AppError {
  return new AppError("invalid_request", "The request body is invalid.", {
    details: [{ path, message, code: "custom" }],
  });
}

/** The escrow deadline: given or defaulted; in the future and not before any due date. */
function dealDeadline(input: CreateDealInput, now = Date.now()): Date {
  const day = 24 * 3600 * 1000;
  const lastDue = Math.max(0, ...input.milestones.map((m) => (m.dueAt ? Date.parse(m.dueAt) : 0)));
  // Default: 30 days out, or a week after the last due date when that is later.
  const deadline = input.deadline
    ? new Date(input.deadline)
    : new Date(Math.max(now + DEFAULT_DEADLINE_DAYS * day, lastDue + 7 * day));
  if (deadline.getTime() <= now + 60 * 60 * 1000)
    throw badDeadline(["deadline"], "must be at least an hour from now");
  input.milestones.forEach((m, i) => {
    if (m.dueAt && Date.parse(m.dueAt) <= now)
      throw badDeadline(["milestones", String(i), "dueAt"], "must be in the future");
    if (m.dueAt && new Date(m.dueAt).getTime() > deadline.getTime())
      throw badDeadline(
        ["milestones", String(i), "dueAt"],
        "must not be after the deal's deadline",
      );
  });
  return deadline;
}

/**
 * A brand creates a deal; its budget is the sum of its milestones. It stays `unfunded`
 * (invisible to creators) until the escrow holds that budget.
 */
export async function createDeal(
  db: Db,
  caller: Caller,
  input: CreateDealInput,
): Promise<DealJson> {
  requireRole(caller, "organization");
  const budgetUnits = input.milestones.reduce((sum, m) => sum + m.amount, 0n);
  const deadlineAt = dealDeadline(input);
  const deal = await db.transaction(async (tx) => {
    const created = await insertDeal(tx, {
      brandId: caller.id,
      title: input.title,
      description: input.description,
      platform: input.platform,
      minScoreBps: scoreToBps(input.minScore),
      autoSettleConfidenceBps: scoreToBps(input.autoSettleConfidence),
      budgetUnits,
      deadlineAt,
      reviewWindowSeconds: input.reviewWindowDays * 24 * 3600,
      disclosureRequired: input.disclosure.required,
      disclosureOffReason: input.disclosure.required ? null : (input.disclosure.reason ?? null),
      inviteEmail: input.creatorEmail?.toLowerCase() ?? null,
      metadata: input.metadata ?? {},
    });
    if (!created) throw new Error("insert returned no deal");
    await insertDealMilestones(
      tx,
      input.milestones.map((m, position) => ({
        dealId: created.id,
        position,
        title: m.title,
        amountUnits: m.amount,
        requirements: m.requirements,
        dueAt: m.dueAt ? new Date(m.dueAt) : null,
        metadata: m.metadata ?? {},
      })),
    );
    await recordEvent(tx, { dealId: created.id, type: "created", actorId: caller.id });
    return created;
  });
  return renderDeal(db, deal);
}

/** GET /api/deals answers this: one page and the cursor of the next (null at the end). */
export const dealPageResponse = z.object({ deals: z.array(dealSchema), nextCursor });
export type DealPage = z.infer<typeof dealPageResponse>;

export type DealListOptions = {
  open?: boolean;
  status?: string;
  platform?: string;
  search?: string;
  metadata?: { key: string; value: string };
  sort?: DealSort;
  limit?: number;
  cursor?: string;
};

const dealKey = z.object({
  t: z.string().regex(/^-?\d{1,20}$/),
  id: z.uuid(),
  b: z
    .string()
    .regex(/^\d{1,40}$/)
    .optional(),
});

/**
 * One page of the caller's deals as brand or creator, or with `open` of the open deals a
 * creator may take: filtered (status, platform, search in title and description) and
 * ordered (newest, oldest, budget) in the database, keyset-paginated (a row inserted
 * while someone pages never shifts the pages after it).
 */
export async function listDeals(
  db: Db,
  caller: Caller,
  opts: DealListOptions = {},
): Promise<DealPage> {
  const sort = opts.sort ?? "newest";
  const limit = opts.limit ?? 20;
  const list = `deals:${opts.open ? "open" : "mine"}:${sort}`;
  const filter: DealListFilter = {
    status: opts.status,
    platform: opts.platform,
    search: opts.search || undefined,
    metadata: opts.metadata,
    sort,
    after: opts.cursor ? decodeCursor(list, opts.cursor, dealKey) : undefined,
    limit: limit + 1,
  };
  if (opts.open) requireRole(caller, "creator");
  const rows = opts.open
    ? await listOpenDealsPage(db, caller, filter)
    : await listPartyDealsPage(db, caller, filter);
  const page = rows.slice(0, limit);
  const rendered = await renderDeals(db, page);
  const last = page.at(-1);
  return {
    deals: rendered,
    nextCursor: rows.length > limit && last ? encodeCursor(list, last.key) : null,
  };
}

/** One deal, with each milestone's review state (appeal, decision, review window). */
export async function getDeal(db: Db, caller: Caller, dealId: string): Promise<DealDetailJson> {
  const deal = await findVisibleDeal(db, caller, dealId);
  if (!deal) throw notFound("Deal");
  return withReviews(db, deal, await renderDeal(db, deal));
}

/**
 * A creator takes an open deal. A public deal someone else already took answers 409 (not
 * 404): the loser of a race saw it open a moment ago, and must learn why it failed
 * whichever order the two requests reach the database in. One conditional UPDATE decides races: the first
 * creator's statement wins, the others find no open row and get 409.
 */
export async function acceptDeal(
  db: Db,
  caller: Caller,
  dealId: string,
  opts: { termsVersion?: number } = {},
): Promise<DealJson> {
  const deal = await findAcceptableDeal(db, caller, dealId);
  if (!deal) throw notFound("Deal");
  if (deal.brandId === caller.id) throw new AppError("forbidden", "You cannot take your own deal.");
  requireRole(caller, "creator");
  if (deal.creatorId === caller.id) {
    // A retry after the on-chain assignment did not finish: finish it.
    return renderDeal(db, deal.assignedAt ? deal : await assignCreatorOnChain(db, deal));
  }
  // The escrow pays only the address recorded when the deal is taken: a proven wallet.
  const wallet = (await getUserById(db, caller.id))?.walletAddress;
  if (!wallet)
    throw new AppError(
      "wallet_required",
      "Link a wallet before taking a deal: the escrow pays the address recorded now.",
    );
  const termsChanged = () =>
    new AppError(
      "terms_changed",
      "The brand changed this deal after you opened it. Review the new terms, then take it.",
    );
  if (opts.termsVersion !== undefined && deal.termsVersion !== opts.termsVersion)
    throw termsChanged();
  const taken = await db.transaction(async (tx) => {
    // With the version the creator read: an edit committed since is not what they agreed to.
    const row = await takeOpenDeal(tx, caller, dealId, {
      creatorWallet: wallet,
      termsVersion: opts.termsVersion,
    });
    if (row)
      await recordEvent(tx, {
        dealId,
        type: "taken",
        actorId: caller.id,
        data: { creatorWallet: wallet },
      });
    return row;
  });
  if (!taken) {
    const now = await findAcceptableDeal(db, caller, dealId);
    if (now && now.status === "open" && !now.creatorId) throw termsChanged();
    throw new AppError("invalid_state", "This deal has already been taken by another creator.");
  }
  // Recorded on-chain by the evaluator; from then on the brand can no longer cancel it.
  return renderDeal(db, await assignCreatorOnChain(db, taken));
}

/**
 * Whether the deal page has a deal to show (else it answers 404): one the caller may see,
 * or — signed out — any deal (the page then asks to sign in; deal ids are unguessable).
 */
export async function dealPageExists(
  db: DbOrTx,
  caller: Caller | null,
  dealId: string,
): Promise<boolean> {
  if (caller) return (await findVisibleDeal(db, caller, dealId)) !== undefined;
  return dealExists(db, dealId);
}
