import { z } from "zod";
import type { Db } from "@/db/client";
import {
  findVisibleMilestone,
  insertDeliverable,
  lockDealMilestone,
  markMilestoneSubmitted,
  updateMilestoneMetadata,
} from "@/db/queries/deals";
import { loadMilestoneView, loadVisibleMilestoneView } from "@/db/queries/settle-view";
import type { Deal, Settlement } from "@/db/schema";
import type { Caller } from "@/lib/deals/deals";
import { claimSubmittedPost } from "@/lib/deals/evidence-claims";
import type { DeliverableInput } from "@/lib/deals/schemas";
import {
  changeRequestJson,
  changeRequestSchema,
  deliverableJson,
  deliverableSchema,
  milestoneJson,
  verdictJson,
  verdictSchema,
} from "@/lib/deals/serialize";
import { AppError, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/events";
import { assertMetadataSize, type Metadata } from "@/lib/metadata";
import { milestoneWithReviewSchema, reviewFrom } from "@/lib/settle/review";

// Milestones: the creator submits deliverables (each a new revision); both parties read
// the milestone with its whole history of deliverables and verdicts.

export const milestoneDetailSchema = milestoneWithReviewSchema
  .extend({
    dealTitle: z.string(),
    history: z.object({
      deliverables: z.array(deliverableSchema),
      verdicts: z.array(verdictSchema),
      changeRequests: z.array(changeRequestSchema).describe("Every revision sent back for changes"),
    }),
  })
  .meta({ id: "MilestoneDetail" });
export type MilestoneDetailJson = z.infer<typeof milestoneDetailSchema>;
/** `{ milestone }`: a milestone's read, and what submitting or changing one answers. */
export const milestoneDetailResponse = z.object({ milestone: milestoneDetailSchema });

type MilestoneView = Awaited<ReturnType<typeof loadMilestoneView>>;

/**
 * A milestone the caller may see, with its deal, its settlement and its history: one
 * statement (loadVisibleMilestoneView).
 */
export async function getMilestone(
  db: Db,
  caller: Caller,
  milestoneId: string,
): Promise<MilestoneDetailJson> {
  const row = await loadVisibleMilestoneView(db, caller, milestoneId);
  if (!row) throw notFound("Milestone");
  return detailFrom(row.deal, row, row.settlement ?? undefined);
}

/**
 * PATCH /api/milestones/:id: the brand merges metadata into a milestone of its deal (any
 * status). 404 for anyone who may not see it, 403 for the deal's creator.
 */
export async function updateMilestone(
  db: Db,
  caller: Caller,
  milestoneId: string,
  patch: { metadata: Metadata },
): Promise<MilestoneDetailJson> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  if (!row) throw notFound("Milestone");
  if (row.deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can change its milestones.");
  await db.transaction(async (tx) => {
    const updated = await updateMilestoneMetadata(tx, caller.id, milestoneId, patch.metadata);
    if (!updated) throw notFound("Milestone");
    assertMetadataSize(updated.metadata);
  });
  return getMilestone(db, caller, milestoneId);
}

/**
 * The milestone view getMilestone answers, built from the deal and settlement the caller
 * already holds (the milestone already found visible to it): the milestone row and its
 * history read in one statement.
 */
export async function milestoneDetailOf(
  db: Db,
  deal: Deal,
  milestoneId: string,
  settlement: Settlement | undefined,
): Promise<MilestoneDetailJson> {
  return detailFrom(deal, await loadMilestoneView(db, milestoneId), settlement);
}

/** The milestone's JSON from its view: its review state from the view's rows too. */
function detailFrom(
  deal: Deal,
  view: MilestoneView,
  settlement: Settlement | undefined,
): MilestoneDetailJson {
  if (!view) throw notFound("Milestone");
  const m = view.milestone;
  const rows = {
    submissions: view.deliverables.map((d) => ({
      milestoneId: d.milestoneId,
      revision: d.revision,
      submittedAt: d.submittedAt,
    })),
    appeals: view.appeals,
    decisions: view.decisions,
  };
  return {
    ...milestoneJson(m, {
      deliverables: view.deliverables,
      verifications: view.verifications,
      settlement,
      changeRequests: view.changeRequests,
    }),
    dealTitle: deal.title,
    review: reviewFrom(deal, m, rows),
    history: {
      deliverables: view.deliverables.map(deliverableJson),
      verdicts: view.verifications.map(verdictJson),
      changeRequests: view.changeRequests.map(changeRequestJson),
    },
  };
}

/**
 * The deal's creator submits a deliverable: a new revision, allowed while the milestone
 * is `pending` or `rejected`. The milestone row is locked so two submissions cannot
 * take the same revision number or slip past a settlement that just began. Its post is
 * claimed for this milestone in the same transaction: a post already another milestone's
 * deliverable (any deal, any creator) is refused with 409 evidence_already_used, unless
 * it is this milestone's own new revision (lib/deals/evidence-claims.ts).
 */
export async function submitDeliverable(
  db: Db,
  caller: Caller,
  milestoneId: string,
  input: DeliverableInput,
): Promise<MilestoneDetailJson> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  if (!row) throw notFound("Milestone");
  if (row.deal.creatorId !== caller.id)
    throw new AppError("forbidden", "Only the deal's creator can submit deliverables.");
  if (row.deal.status !== "active")
    throw new AppError(
      "invalid_state",
      `The deal is ${row.deal.status}; deliverables can no longer be submitted.`,
    );

  await db.transaction(async (tx) => {
    const locked = await lockDealMilestone(tx, row.deal.id, milestoneId);
    if (!locked) throw notFound("Milestone");
    if (!["pending", "rejected"].includes(locked.status))
      throw new AppError(
        "invalid_state",
        locked.status === "submitted"
          ? "A deliverable is already awaiting review; wait for the brand's verdict before resubmitting."
          : `The milestone is ${locked.status}; it takes no more deliverables.`,
        { details: { status: locked.status } },
      );
    const revision = locked.revision + 1;
    // One post, one payment: its URL becomes this milestone's, or 409 evidence_already_used.
    await claimSubmittedPost(tx, { milestoneId, dealId: row.deal.id, revision }, input.url);
    await insertDeliverable(tx, {
      milestoneId,
      revision,
      url: input.url,
      text: input.text,
      note: input.note,
      submittedBy: caller.id,
    });
    await markMilestoneSubmitted(tx, milestoneId, revision);
    await recordEvent(tx, {
      dealId: row.deal.id,
      milestoneId,
      type: "submitted",
      actorId: caller.id,
      data: { revision, url: input.url },
    });
  });
  return getMilestone(db, caller, milestoneId);
}
