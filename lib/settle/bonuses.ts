import { type Hex, keccak256, toBytes } from "viem";
import { z } from "zod";
import type { Db } from "@/db/client";
import {
  activateBonusDeal,
  type BonusRow,
  findBonusById,
  findBonusRow,
  hasPaidMilestone,
  insertBonusDeal,
  listBonusRows,
} from "@/db/queries/bonuses";
import { findVisibleDeal } from "@/db/queries/deals";
import { findMilestoneSettlement } from "@/db/queries/decisions";
import type { Deal, Settlement } from "@/db/schema";
import { explorerTxUrl } from "@/lib/chain/explorer";
import type { Caller } from "@/lib/deals/deals";
import { confirmFunding } from "@/lib/deals/funding";
import { AppError, notFound } from "@/lib/errors";
import { assignCreatorOnChain } from "@/lib/escrow/deals";
import { unitsToDecimal } from "@/lib/money";
import { decodeCursor, encodeCursor, type PageQuery, toPage } from "@/lib/pagination";
import { advanceSettlement, isStillPending, requestWaitMs } from "@/lib/settle/advance";
import { AMOUNT_RANGE, BONUS_MAX_UNITS, type BonusStatus } from "@/lib/settle/bonus-rules";
import type { bonusSchema } from "@/lib/settle/bonus-schemas";
import { claim } from "@/lib/settle/settle";
import { canonicalJson } from "@/lib/verify/record";

// Bonuses (issue 24, item 5). Once a milestone of a deal is paid, its brand may send the
// creator a bonus with a message. A bonus is its own escrow deal: a `deals` row whose
// parent_deal_id is the deal it rewards, with one milestone of the bonus amount and the
// parent's creator (and payout wallet) already on it. So it is funded exactly as a deal is,
// by every path the app has — the brand's wallet (`fund`), a gasless authorization
// (`fundWithAuthorization`) or its deposit address — through the deal funding routes under
// the bonus's id (GET/POST /api/deals/{bonusId}/funding…), under its own dealRef (the bonus's
// UUID), so it can never be confused with the deal's own escrow money. Once funded, the
// service assigns the creator on-chain and releases the one milestone at 100 % through the
// settlement path (lib/settle/settle.ts claim, lib/settle/advance.ts): the escrow's
// once-only release, the unique settlement per milestone, the lease, the recorded signed
// transaction and reconcile are the same as for any milestone. The release carries the hash
// of the bonus record instead of a verdict hash. A bonus's settlement is never a reputation
// record (db/queries/reputation.ts leaves bonus deals out): reputation follows verdicts only.
// Its parties see it as `bonus.funded` and `bonus.paid` events of the parent deal (timeline,
// inbox, e-mail, webhooks); the bonus deal's own events reach nobody.

/** A bonus as the API answers it (lib/settle/bonus-schemas.ts documents each field). */
export type BonusJson = z.infer<typeof bonusSchema>;

/** The record a bonus's release carries the hash of: what the brand sent, to whom, on which deal. */
export function bonusRecordHash(b: Deal): Hex {
  const record = {
    object: "bonus",
    id: b.id,
    dealId: b.parentDealId,
    brandId: b.brandId,
    creatorId: b.creatorId,
    recipient: b.creatorWallet,
    amountUnits: b.budgetUnits.toString(),
    message: b.bonusMessage,
    createdAt: b.createdAt.toISOString(),
  };
  return keccak256(toBytes(canonicalJson(record)));
}

function statusOf({ bonus, milestone, settlement }: BonusRow): BonusStatus {
  if (settlement?.status === "confirmed") return "paid";
  if (milestone.status === "refunded" || bonus.status === "expired") return "refunded";
  if (bonus.status === "cancelled") return "cancelled";
  if (settlement) return "paying";
  return bonus.fundedAt ? "funded" : "awaiting_funding";
}

export function bonusJson(row: BonusRow): BonusJson {
  const { bonus, settlement } = row;
  const paid = settlement?.status === "confirmed" ? settlement : null;
  return {
    id: bonus.id,
    object: "bonus",
    dealId: bonus.parentDealId as string,
    amount: unitsToDecimal(bonus.budgetUnits),
    amountUnits: bonus.budgetUnits.toString(),
    message: bonus.bonusMessage ?? "",
    status: statusOf(row),
    funding: `/api/deals/${bonus.id}/funding`,
    deadline: bonus.deadlineAt.toISOString(),
    fundingTxHash: bonus.fundingTxHash,
    txHash: paid?.txHash ?? null,
    explorerUrl: paid?.txHash ? explorerTxUrl(paid.chainId, paid.txHash) : null,
    recordHash: bonusRecordHash(bonus),
    createdAt: bonus.createdAt.toISOString(),
    fundedAt: bonus.fundedAt?.toISOString() ?? null,
    paidAt: paid ? paid.updatedAt.toISOString() : null,
  };
}

/** The parent deal, for one of its parties (404 for anyone else, and for a bonus deal). */
async function partyDeal(db: Db, caller: Caller, dealId: string): Promise<Deal> {
  const deal = await findVisibleDeal(db, caller, dealId);
  if (!deal || deal.parentDealId || (deal.brandId !== caller.id && deal.creatorId !== caller.id))
    throw notFound("Deal");
  return deal;
}

const onlyBrand = () => new AppError("forbidden", "Only the deal's brand can send a bonus.");

/**
 * POST /api/deals/:id/bonuses: the brand starts a bonus of `amountUnits` with a message, on a
 * deal with a paid milestone. Nothing moves yet: the answer says where to fund it.
 */
export async function createBonus(
  db: Db,
  caller: Caller,
  dealId: string,
  input: { amountUnits: bigint; message: string },
): Promise<BonusJson> {
  const deal = await partyDeal(db, caller, dealId);
  if (deal.brandId !== caller.id) throw onlyBrand();
  if (input.amountUnits <= 0n || input.amountUnits > BONUS_MAX_UNITS)
    throw new AppError("invalid_request", "The request is invalid.", {
      details: [{ path: ["amount"], message: AMOUNT_RANGE, code: "custom" }],
    });
  if (!deal.creatorId || !deal.creatorWallet)
    throw new AppError(
      "invalid_state",
      "Nobody has taken this deal: there is no creator to reward.",
    );
  if (!(await hasPaidMilestone(db, deal.id)))
    throw new AppError(
      "invalid_state",
      "A bonus can be sent once a milestone of this deal has been paid.",
    );
  const created = await db.transaction((tx) =>
    insertBonusDeal(tx, deal, { amountUnits: input.amountUnits, message: input.message }),
  );
  return bonusJson({ ...created, settlement: null });
}

const bonusKey = z.object({ t: z.string().regex(/^\d+$/), id: z.uuid() });

/** GET /api/deals/:id/bonuses: the brand sees every bonus, the creator the funded ones. */
export async function listBonuses(
  db: Db,
  caller: Caller,
  dealId: string,
  page: PageQuery,
): Promise<{ bonuses: BonusJson[]; nextCursor: string | null }> {
  const deal = await partyDeal(db, caller, dealId);
  const list = `bonuses:${deal.id}`;
  const before = page.cursor ? decodeCursor(list, page.cursor, bonusKey) : undefined;
  const rows = await listBonusRows(db, caller.id, deal.id, { before, limit: page.limit + 1 });
  const result = toPage(rows, page.limit, bonusJson, (r) =>
    encodeCursor(list, { t: r.t, id: r.bonus.id }),
  );
  return { bonuses: result.items, nextCursor: result.nextCursor };
}

/** GET /api/deals/:id/bonuses/:bonusId. */
export async function getBonus(
  db: Db,
  caller: Caller,
  dealId: string,
  bonusId: string,
): Promise<BonusJson> {
  const row = await findBonusRow(db, caller.id, dealId, bonusId);
  if (!row) throw notFound("Bonus");
  return bonusJson(row);
}

/**
 * POST /api/deals/:id/bonuses/:bonusId/release: the brand funded the bonus (any path);
 * the escrow is read (a funding nobody reported yet opens it, as POST …/funding does) and
 * the bonus is paid to the creator. 409 not_funded while the escrow holds nothing for it.
 * Retried or raced, it pays once: the answer is the bonus as it stands.
 */
export async function releaseBonus(
  db: Db,
  caller: Caller,
  dealId: string,
  bonusId: string,
): Promise<BonusJson> {
  const row = await findBonusRow(db, caller.id, dealId, bonusId);
  if (!row) throw notFound("Bonus");
  if (row.bonus.brandId !== caller.id) throw onlyBrand();
  if (!row.bonus.fundedAt) {
    if (row.bonus.status === "cancelled")
      throw new AppError("invalid_state", "This bonus was cancelled before it was funded.");
    // Exactly what POST /api/deals/{bonusId}/funding does: a full deposit address is swept,
    // then the escrow is read under the brand's funding wallet (409 not_funded if empty).
    await confirmFunding(db, caller, row.bonus.id);
  }
  return payBonus(db, row.bonus, { actorId: caller.id, waitMs: requestWaitMs() });
}

async function reloadBonus(db: Db, bonusId: string): Promise<BonusRow> {
  const row = await findBonusById(db, bonusId);
  if (!row) throw new Error(`bonus ${bonusId} vanished`);
  return row;
}

/**
 * Pays a funded bonus: assigns its creator on-chain (once), claims its one settlement at
 * 100 % with the bonus record's hash, and advances it (lib/settle/advance.ts). Shared by
 * the brand's release and reconcile, which finishes one a request left behind. A payment
 * another caller is making answers 409 settlement_in_progress; one already made answers the
 * bonus as paid. Past `waitMs` the answer is the bonus `paying` with `poll`.
 */
export async function payBonus(
  db: Db,
  funded: Deal,
  opts: { actorId?: string | null; waitMs?: number } = {},
): Promise<BonusJson> {
  const start = await reloadBonus(db, funded.id);
  if (start.settlement?.status === "confirmed") return bonusJson(start);
  let bonus = start.bonus;
  if (!bonus.fundedAt) throw new AppError("not_funded", "This bonus is not funded yet.");
  if (
    bonus.status === "cancelled" ||
    bonus.status === "expired" ||
    start.milestone.status === "refunded"
  )
    throw new AppError("invalid_state", "This bonus's money went back to the brand.");
  const milestone = start.milestone;
  let settlement: Settlement | undefined = start.settlement ?? undefined;
  let created: Settlement | undefined;
  if (!settlement) {
    if (!bonus.assignedAt) bonus = await assignCreatorOnChain(db, bonus);
    await activateBonusDeal(db, bonus.id);
    try {
      created = await claim(
        db,
        bonus,
        milestone,
        { revision: 0, scoreBps: 10_000, verdictHash: bonusRecordHash(bonus) },
        "direct",
        { actorId: opts.actorId ?? bonus.brandId },
      );
      settlement = created;
    } catch (err) {
      // A concurrent caller claimed it first (the unique settlement per milestone, or the
      // milestone already approved under its lock): resume theirs, or say it is under way.
      const other = await findMilestoneSettlement(db, milestone.id);
      if (!other) throw err;
      if (other.status === "confirmed") return bonusJson(await reloadBonus(db, bonus.id));
      settlement = other;
    }
  }
  try {
    await advanceSettlement(db, settlement.id, {
      leaseHeld: created !== undefined,
      created,
      target: { deal: bonus, milestone },
      waitMs: opts.waitMs,
    });
  } catch (err) {
    if (!isStillPending(err)) throw err;
    const row = await reloadBonus(db, bonus.id);
    return { ...bonusJson(row), poll: `/api/deals/${bonus.parentDealId}/bonuses/${bonus.id}` };
  }
  return bonusJson(await reloadBonus(db, bonus.id));
}
