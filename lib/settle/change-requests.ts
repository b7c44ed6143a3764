import { z } from "zod";
import type { Db } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import {
  findChangeRequest,
  insertChangeRequest,
  sendBackForChanges,
} from "@/db/queries/change-requests";
import { findVisibleMilestone } from "@/db/queries/deals";
import { findMilestoneSettlement, lockMilestone } from "@/db/queries/decisions";
import type { ChangeRequest, Milestone } from "@/db/schema";
import type { Caller } from "@/lib/deals/deals";
import { getMilestone, milestoneDetailSchema } from "@/lib/deals/milestones";
import { changeRequestJson, changeRequestSchema, settlementJson } from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/events";

// Change requests: on a submission awaiting review, the brand asks the creator for changes
// with a message. The milestone goes back to `pending` without a verdict: nothing is paid,
// refunded or lowered, no rejection is recorded, reputation is untouched. The creator's next
// submission is a new revision, so its review window starts afresh and whatever the verifier
// said about the revision sent back (a verdict, a decision) can never settle it.
//
// Races: the request and a settlement's claim (lib/settle/settle.ts) both lock the milestone
// row. A claim that committed first (a settle or decision paying, or its payment under way)
// wins: the request answers 409 already_settled / settlement_in_progress and changes
// nothing. A request that committed first wins over a settle still verifying: its claim then
// finds the revision sent back and answers 409 changes_requested, having moved nothing.

export const changeRequestResponse = z.object({
  changeRequest: changeRequestSchema,
  milestone: milestoneDetailSchema,
});
export type RequestChangesResult = z.infer<typeof changeRequestResponse>;

/** 409 for anything that would settle, verify or decide a revision the brand sent back. */
export function changesRequested(m: Pick<Milestone, "revision">): AppError {
  return new AppError(
    "changes_requested",
    `The brand asked for changes to revision ${m.revision}; there is nothing to review until the creator submits again.`,
    { details: { revision: m.revision } },
  );
}

/** The milestone was sent back for changes: `pending` on a revision that was submitted. */
export const sentBackForChanges = (m: Pick<Milestone, "status" | "revision">) =>
  m.status === "pending" && m.revision > 0;

function alreadyRequested(revision: number): AppError {
  return new AppError(
    "changes_already_requested",
    `Changes were already requested on revision ${revision}; the creator's next submission is reviewed afresh.`,
    { details: { revision } },
  );
}

/** POST /api/milestones/:id/request-changes — the brand sends a submission back with a message. */
export async function requestChanges(
  db: Db,
  caller: Caller,
  input: { milestoneId: string; message: string },
): Promise<RequestChangesResult> {
  const row = await findVisibleMilestone(db, caller, input.milestoneId);
  if (!row) throw notFound("Milestone");
  const { deal } = row;
  if (deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can ask for changes.");

  let created: ChangeRequest | undefined;
  try {
    created = await db.transaction(async (tx) => {
      // The milestone row lock orders this against a claim (settle, decision) and a new
      // submission: whichever commits first, the other sees it.
      const [locked, settlement] = await Promise.all([
        lockMilestone(tx, input.milestoneId),
        findMilestoneSettlement(tx, input.milestoneId),
      ]);
      if (!locked) throw notFound("Milestone");
      if (settlement)
        throw settlement.status === "confirmed"
          ? new AppError("already_settled", "This milestone has already been paid.", {
              details: { settlement: settlementJson(settlement) },
            })
          : new AppError(
              "settlement_in_progress",
              "This milestone is being settled; changes can no longer be requested.",
              { details: { settlement: settlementJson(settlement) } },
            );
      // (A paid milestone is said to be paid, even when that completed the deal.)
      if (deal.status !== "active")
        throw new AppError(
          "invalid_state",
          `The deal is ${deal.status}; its milestones take no more change requests.`,
        );
      if (sentBackForChanges(locked)) {
        if (await findChangeRequest(tx, locked.id, locked.revision))
          throw alreadyRequested(locked.revision);
      }
      if (locked.status === "pending")
        throw new AppError("no_deliverable", "Nothing has been submitted for review yet.");
      if (locked.status !== "submitted")
        throw new AppError(
          "invalid_state",
          locked.status === "rejected"
            ? "This submission was rejected; the creator can already submit a new one."
            : `The milestone is ${locked.status}; only a submission awaiting review can be sent back.`,
          { details: { status: locked.status } },
        );
      const request = await insertChangeRequest(tx, {
        milestoneId: locked.id,
        dealId: deal.id,
        revision: locked.revision,
        requestedBy: caller.id,
        message: input.message,
      });
      if (!request || !(await sendBackForChanges(tx, locked.id, locked.revision)))
        throw new Error("the locked milestone did not go back to pending");
      await recordEvent(tx, {
        dealId: deal.id,
        milestoneId: locked.id,
        type: "milestone.changes_requested",
        actorId: caller.id,
        data: { revision: locked.revision, message: input.message, changeRequestId: request.id },
      });
      return request;
    });
  } catch (err) {
    if (isUniqueViolation(err, "change_requests_milestone_revision_key"))
      throw alreadyRequested(row.milestone.revision);
    throw err;
  }
  return {
    changeRequest: changeRequestJson(created),
    milestone: await getMilestone(db, caller, input.milestoneId),
  };
}
