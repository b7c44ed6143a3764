import type { Db } from "@/db/client";
import {
  findVisibleDeal,
  listDealMilestones,
  lockBrandDeal,
  type MilestoneTerms,
  replaceDealMilestones,
  updateDealFields,
  updateDealMetadata,
} from "@/db/queries/deals";
import type { Deal, Milestone, Requirements } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { type Caller, renderDeal } from "@/lib/deals/deals";
import { fundingInFlight } from "@/lib/deals/funding";
import type { EditDealInput } from "@/lib/deals/schemas";
import type { DealJson } from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { assertFunded, syncFunding } from "@/lib/escrow/deals";
import { recordEvent } from "@/lib/events/events";
import { assertMetadataSize } from "@/lib/metadata";
import { scoreToBps, unitsToDecimal } from "@/lib/money";

// Editing a deal nobody has taken. What may change follows what the escrow holds:
//   unfunded  nothing is on-chain yet, so everything may change (title, brief, platform,
//             minimum score, auto-settle threshold, review window, disclosure rule, invite,
//             deadline, milestones: their names, amounts, due dates, requirements and number);
//   open      funded, not taken: the escrow holds the deadline and each milestone's amount
//             (so also their number and the budget) — those stay; everything the escrow
//             does not hold may still change (milestone names, due dates within the
//             deadline, requirements, title, brief, platform, score, auto-settle
//             threshold, review window, disclosure rule, invite);
//   taken, cancelled, completed, expired: nothing (409 deal_not_editable).
// The escrow is read before anything is written (an unfunded deal may have been funded
// without anyone reporting it), outside the transaction; the write itself holds the deal's
// row lock, so a take, funding or cancel running at the same time goes entirely before or
// entirely after it (and the funding check re-reads the terms under that lock).

const DAY_MS = 24 * 3600 * 1000;
const EDITABLE: Deal["status"][] = ["unfunded", "open"];

/** The deal fields an edit can change, as the event names them. */
export type EditedField =
  | "title"
  | "description"
  | "platform"
  | "minScore"
  | "autoSettleConfidence"
  | "creatorEmail"
  | "deadline"
  | "reviewWindowDays"
  | "disclosure"
  | "milestones";

function notEditable(deal: Deal): AppError {
  const why =
    deal.creatorId || deal.status === "active"
      ? "A creator has taken this deal, so its terms can no longer change."
      : deal.status === "cancelled"
        ? "This deal is cancelled, so it can no longer be edited."
        : deal.status === "completed"
          ? "This deal is complete, so it can no longer be edited."
          : `This deal is ${deal.status}, so it can no longer be edited.`;
  return new AppError("deal_not_editable", why, { details: { status: deal.status } });
}

function invalid(path: string[], message: string): AppError {
  return new AppError("invalid_request", "The request body is invalid.", {
    details: [{ path, message, code: "custom" }],
  });
}

const LOCKED_HINT = "To change them, cancel this deal and create a new one.";

function termsLocked(what: string, path: string[]): AppError {
  return new AppError(
    "terms_locked",
    `${what} The escrow already holds this deal's money with its amounts and deadline. ${LOCKED_HINT}`,
    { details: { path, locked: ["deadline", "milestones.amount", "milestones.count"] } },
  );
}

const sameRequirements = (a: Requirements, b: Requirements) =>
  JSON.stringify([a.hashtags, a.mentions, a.links, a.criteria]) ===
  JSON.stringify([b.hashtags, b.mentions, b.links, b.criteria]);

const sameTime = (a: Date | null, b: Date | null) =>
  (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** Whether two milestone lists say the same thing (names, amounts, requirements, due dates). */
function sameMilestones(before: Milestone[], after: MilestoneTerms[]): boolean {
  return (
    before.length === after.length &&
    before.every((m, i) => {
      const n = after[i];
      return (
        !!n &&
        m.title === n.title &&
        m.amountUnits === n.amountUnits &&
        sameRequirements(m.requirements, n.requirements) &&
        sameTime(m.dueAt, n.dueAt)
      );
    })
  );
}

/**
 * The new deadline and milestones, checked against what the escrow holds (funded) and
 * against the clock: a deadline or due date that changes must lie ahead; no due date may
 * fall after the deadline.
 */
function plan(deal: Deal, current: Milestone[], input: EditDealInput, now: number) {
  const funded = deal.status !== "unfunded";
  const next: MilestoneTerms[] | null = input.milestones
    ? input.milestones.map((m) => ({
        title: m.title,
        amountUnits: m.amount,
        requirements: m.requirements,
        dueAt: m.dueAt ? new Date(m.dueAt) : null,
      }))
    : null;

  let deadline = deal.deadlineAt;
  if (input.deadline !== undefined) {
    const asked = new Date(input.deadline);
    if (funded && asked.getTime() !== deal.deadlineAt.getTime())
      throw termsLocked("The deadline cannot change.", ["deadline"]);
    if (asked.getTime() !== deal.deadlineAt.getTime()) {
      if (asked.getTime() <= now + 60 * 60 * 1000)
        throw invalid(["deadline"], "must be at least an hour from now");
      deadline = asked;
    }
  } else if (!funded && next) {
    // As at creation: a due date past the deadline moves the deadline a week after it.
    const lastDue = Math.max(0, ...next.map((m) => m.dueAt?.getTime() ?? 0));
    if (lastDue > deadline.getTime()) deadline = new Date(lastDue + 7 * DAY_MS);
  }

  if (next) {
    if (funded) {
      if (next.length !== current.length)
        throw termsLocked(
          `This deal has ${current.length} milestone${current.length === 1 ? "" : "s"}; the number of milestones cannot change.`,
          ["milestones"],
        );
      next.forEach((m, i) => {
        const was = current[i];
        if (was && m.amountUnits !== was.amountUnits)
          throw termsLocked(
            `Milestone ${i + 1}'s amount cannot change (it is ${unitsToDecimal(was.amountUnits)} USDC).`,
            ["milestones", String(i), "amount"],
          );
      });
    }
    next.forEach((m, i) => {
      if (!m.dueAt) return;
      const was = current[i]?.dueAt ?? null;
      if (!sameTime(was, m.dueAt) && m.dueAt.getTime() <= now)
        throw invalid(["milestones", String(i), "dueAt"], "must be in the future");
      if (m.dueAt.getTime() > deadline.getTime())
        throw invalid(
          ["milestones", String(i), "dueAt"],
          funded
            ? `must not be after the deal's deadline (${deadline.toISOString().slice(0, 10)}), which the escrow holds`
            : "must not be after the deal's deadline",
        );
    });
  }
  return { deadline, next };
}

/** The brand's deal (404 for anyone who may not see it, 403 for a creator who may). */
async function ownDeal(db: Db, caller: Caller, dealId: string): Promise<Deal> {
  const deal = await findVisibleDeal(db, caller, dealId);
  if (!deal) throw notFound("Deal");
  if (deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can edit it.");
  return deal;
}

/**
 * PATCH /api/deals/:id: changes the fields given, in one transaction with one `edited`
 * event naming them (none when nothing changed). Answers the deal as it now is.
 */
export async function editDeal(
  db: Db,
  caller: Caller,
  dealId: string,
  input: EditDealInput,
): Promise<DealJson> {
  const { metadata, ...terms } = input;
  let seen = await ownDeal(db, caller, dealId);
  // Metadata is the brand's own bookkeeping, not a term: it changes in any status, no event.
  if (metadata !== undefined) {
    seen = await db.transaction(async (tx) => {
      const row = await updateDealMetadata(tx, caller.id, dealId, metadata);
      if (!row) throw notFound("Deal");
      assertMetadataSize(row.metadata);
      return row;
    });
    if (Object.values(terms).every((v) => v === undefined)) return renderDeal(db, seen);
  }
  if (!EDITABLE.includes(seen.status) || seen.creatorId) throw notEditable(seen);

  // Unfunded in the database, but the escrow may hold a funding nobody reported yet: the
  // chain decides, before the transaction. A funding with this deal's terms opens it (the
  // edit then goes on under the funded rules); one with other terms must be cancelled.
  if (seen.status === "unfunded" && chainConfig().escrow) {
    const check = await syncFunding(db, seen);
    if (check.status !== "not_funded") assertFunded(check);
  }

  const now = Date.now();
  const result = await db.transaction(async (tx) => {
    const deal = await lockBrandDeal(tx, caller.id, dealId);
    if (!deal) throw notFound("Deal");
    if (!EDITABLE.includes(deal.status) || deal.creatorId) throw notEditable(deal);
    const current = await listDealMilestones(tx, deal.id);
    const { deadline, next } = plan(deal, current, input, now);

    const changed: EditedField[] = [];
    const patch: Parameters<typeof updateDealFields>[3] = {};
    if (input.title !== undefined && input.title !== deal.title) {
      patch.title = input.title;
      changed.push("title");
    }
    if (input.description !== undefined && input.description !== deal.description) {
      patch.description = input.description;
      changed.push("description");
    }
    if (input.platform !== undefined && input.platform !== deal.platform) {
      patch.platform = input.platform;
      changed.push("platform");
    }
    if (input.minScore !== undefined && scoreToBps(input.minScore) !== deal.minScoreBps) {
      patch.minScoreBps = scoreToBps(input.minScore);
      changed.push("minScore");
    }
    if (
      input.autoSettleConfidence !== undefined &&
      scoreToBps(input.autoSettleConfidence) !== deal.autoSettleConfidenceBps
    ) {
      patch.autoSettleConfidenceBps = scoreToBps(input.autoSettleConfidence);
      changed.push("autoSettleConfidence");
    }
    if (input.creatorEmail !== undefined) {
      const invite = input.creatorEmail?.toLowerCase() ?? null;
      if (invite !== deal.inviteEmail) {
        patch.inviteEmail = invite;
        changed.push("creatorEmail");
      }
    }
    if (deadline.getTime() !== deal.deadlineAt.getTime()) {
      patch.deadlineAt = deadline;
      changed.push("deadline");
    }
    if (
      input.reviewWindowDays !== undefined &&
      input.reviewWindowDays * 24 * 3600 !== deal.reviewWindowSeconds
    ) {
      patch.reviewWindowSeconds = input.reviewWindowDays * 24 * 3600;
      changed.push("reviewWindowDays");
    }
    if (input.disclosure !== undefined) {
      const reason = input.disclosure.required ? null : (input.disclosure.reason ?? null);
      if (
        input.disclosure.required !== deal.disclosureRequired ||
        reason !== deal.disclosureOffReason
      ) {
        patch.disclosureRequired = input.disclosure.required;
        patch.disclosureOffReason = reason;
        changed.push("disclosure");
      }
    }
    const milestonesChanged = next !== null && !sameMilestones(current, next);
    // A relayed funding holds the deal (lib/deals/funding.ts): it sends the amounts and the
    // deadline as they are, so those wait until it is settled — while the hold lasts, and
    // while the relayer's transaction is still unmined after it (a 202 on a slow chain):
    // terms changed under it would leave its USDC in the escrow under a deal nobody opens.
    if (
      deal.status === "unfunded" &&
      (milestonesChanged || deadline.getTime() !== deal.deadlineAt.getTime()) &&
      (await fundingInFlight(tx, deal, now))
    )
      throw new AppError(
        "funding_in_progress",
        "A funding of this deal is on its way to the escrow with its current amounts and deadline: change them once it is settled.",
      );
    const budgetBefore = deal.budgetUnits;
    if (milestonesChanged && next) {
      patch.budgetUnits = next.reduce((sum, m) => sum + m.amountUnits, 0n);
      changed.push("milestones");
    }
    if (changed.length === 0) return deal;

    const updated = await updateDealFields(tx, caller.id, deal.id, patch);
    if (!updated) throw notFound("Deal");
    if (milestonesChanged && next) await replaceDealMilestones(tx, deal.id, current, next);
    await recordEvent(tx, {
      dealId: deal.id,
      type: "edited",
      actorId: caller.id,
      data: {
        fields: changed,
        ...(patch.budgetUnits !== undefined && patch.budgetUnits !== budgetBefore
          ? {
              budget: {
                from: unitsToDecimal(budgetBefore),
                to: unitsToDecimal(patch.budgetUnits),
              },
            }
          : {}),
      },
    });
    return updated;
  });
  return renderDeal(db, result);
}
