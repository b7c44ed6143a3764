import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db, DbOrTx } from "@/db/client";
import { findVisibleMilestone } from "@/db/queries/deals";
import { lockMilestone } from "@/db/queries/decisions";
import {
  findDraft,
  insertDraft,
  listDrafts,
  nextDraftRevision,
  reviewSubmittedDraft,
  supersedeSubmittedDrafts,
} from "@/db/queries/drafts";
import type { Deal, Draft, Milestone, User } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/events";
import { log } from "@/lib/log";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";
import { reserveAttempt } from "@/lib/rate-limit";
import type { ObjectStorage, RangeRequest } from "@/lib/storage";
import { claimUpload } from "@/lib/storage/direct";
import { serveObject } from "@/lib/storage/serve";
import { prepareUpload } from "@/lib/storage/uploads";
import { checkDraftCaption } from "@/lib/verify/draft-match";
import type { DraftInput, DraftJson } from "./schemas";

// Drafts before posting (issue 24, item 1). For a milestone not yet delivered, the creator
// sends a draft — the caption and the media (an uploaded image or video, or a link) — and
// each one is a new revision on the timeline. The brand approves it or asks for changes
// with a message; the milestone's rule checks run on the caption at once, so "hashtag
// #launch" shows as missing while it is still a draft. Once a draft is approved, the live
// post must match its caption (lib/verify/draft-match.ts, in the verifier).
// Only the deal's two parties see a draft or its file (a stranger gets 404, as for the deal).

type Caller = Pick<User, "id" | "email">;

/** A file sent with a draft: its bytes, the type and name it declared. */
export type DraftFile = { bytes: Uint8Array; type: string; name: string | null };

/** Thirty drafts a minute per creator: plenty to iterate, not a way to fill a bucket. */
export const DRAFT_WINDOW = { limit: 30, windowMs: 60_000 };

const mediaUrl = (d: Draft) => `/api/milestones/${d.milestoneId}/drafts/${d.id}/media`;

export function draftJson(
  d: Draft,
  milestone: Pick<Milestone, "requirements">,
  deal: Pick<Deal, "disclosureRequired">,
): DraftJson {
  const media: DraftJson["media"] =
    d.mediaKind === "link" && d.mediaUrl
      ? { kind: "link", url: d.mediaUrl }
      : (d.mediaKind === "image" || d.mediaKind === "video") && d.mediaKey
        ? {
            kind: d.mediaKind,
            type: d.mediaType ?? "application/octet-stream",
            size: d.mediaSize ?? 0,
            name: d.mediaName,
            url: mediaUrl(d),
          }
        : null;
  return {
    id: d.id,
    milestoneId: d.milestoneId,
    dealId: d.dealId,
    revision: d.revision,
    caption: d.caption,
    media,
    status: d.status,
    reviewMessage: d.reviewMessage,
    reviewedAt: d.reviewedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    check: checkDraftCaption(milestone.requirements, d.caption, {
      disclosure: deal.disclosureRequired,
    }),
  };
}

/** The milestone, when the caller is one of the deal's two parties; else 404. */
async function partyMilestone(
  db: DbOrTx,
  caller: Caller,
  milestoneId: string,
): Promise<{ deal: Deal; milestone: Milestone }> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  // An open deal is visible to prospective creators; drafts are the parties' only.
  if (!row || (row.deal.brandId !== caller.id && row.deal.creatorId !== caller.id))
    throw notFound("Milestone");
  return row;
}

/** Drafts come before the post: while nothing is submitted, or after a rejection. */
const TAKES_DRAFTS = new Set(["pending", "rejected"]);

function assertTakesDrafts(deal: Deal, milestone: Milestone): void {
  if (deal.status !== "active")
    throw new AppError("invalid_state", `The deal is ${deal.status}; it takes no drafts.`);
  if (!TAKES_DRAFTS.has(milestone.status))
    throw new AppError(
      "invalid_state",
      `The milestone is ${milestone.status}: drafts come before the post is submitted.`,
      { details: { status: milestone.status } },
    );
}

/** POST /api/milestones/:id/drafts — the creator sends a draft (a new revision). */
export async function createDraft(
  db: Db,
  storage: ObjectStorage,
  caller: Caller,
  milestoneId: string,
  input: DraftInput,
  file: DraftFile | null,
): Promise<DraftJson> {
  const { deal, milestone } = await partyMilestone(db, caller, milestoneId);
  if (deal.creatorId !== caller.id)
    throw new AppError("forbidden", "Only the deal's creator can send drafts.");
  assertTakesDrafts(deal, milestone);
  const ways = [file && "file", input.link && "link", input.upload && "upload"].filter(Boolean);
  if (ways.length > 1)
    throw new AppError("invalid_request", "Send the media one way: a file, an upload or a link.", {
      details: [{ path: [ways[1]], message: `not with a ${ways[0]}`, code: "custom" }],
    });
  await reserveAttempt(db, { bucket: `draft:${caller.id}`, ...DRAFT_WINDOW });

  // The file (sent in the form, or straight to the bucket beforehand: lib/storage/direct.ts)
  // is checked, stripped and stored before the transaction (no network call inside one); if
  // the transaction then fails, the object is removed again.
  const claimed = input.upload ? await claimUpload(storage, caller, input.upload) : null;
  const media = file ?? (claimed && { ...claimed, name: input.uploadName || null });
  let stored: { key: string; type: string; kind: "image" | "video"; size: number } | null = null;
  try {
    if (media) {
      const upload = await prepareUpload(media.bytes, media.type);
      const key = `drafts/${deal.id}/${milestone.id}/${randomUUID()}.${upload.ext}`;
      await storage.put(key, upload.bytes, upload.type);
      stored = { key, type: upload.type, kind: upload.kind, size: upload.bytes.byteLength };
    }
  } finally {
    // What was sent straight to the bucket is kept only as the checked, stripped copy.
    await claimed?.discard();
  }
  try {
    const draft = await db.transaction(async (tx) => {
      const locked = await lockMilestone(tx, milestone.id);
      if (!locked) throw notFound("Milestone");
      assertTakesDrafts(deal, locked);
      const revision = await nextDraftRevision(tx, locked.id);
      await supersedeSubmittedDrafts(tx, locked.id);
      const row = await insertDraft(tx, {
        milestoneId: locked.id,
        dealId: deal.id,
        revision,
        caption: input.caption,
        mediaKind: stored ? stored.kind : input.link ? "link" : null,
        mediaKey: stored?.key ?? null,
        mediaType: stored?.type ?? null,
        mediaSize: stored?.size ?? null,
        mediaName: media?.name ? media.name.slice(0, 200) : null,
        mediaUrl: input.link ?? null,
        submittedBy: caller.id,
      });
      const check = checkDraftCaption(locked.requirements, row.caption, {
        disclosure: deal.disclosureRequired,
      });
      await recordEvent(tx, {
        dealId: deal.id,
        milestoneId: locked.id,
        type: "draft.submitted",
        actorId: caller.id,
        data: {
          draftId: row.id,
          revision,
          mediaKind: row.mediaKind,
          ready: check.ready,
          missing: check.missing,
        },
      });
      return row;
    });
    return draftJson(draft, milestone, deal);
  } catch (err) {
    if (stored)
      await storage.delete(stored.key).catch((e: unknown) => {
        log.warn("could not remove the upload of a draft that was not saved", {
          err: e,
          key: stored?.key,
        });
      });
    throw err;
  }
}

/** GET /api/milestones/:id/drafts — both parties: the drafts, newest revision first. */
export async function listMilestoneDrafts(
  db: DbOrTx,
  caller: Caller,
  milestoneId: string,
  page: PageQuery,
): Promise<Page<DraftJson>> {
  const { deal, milestone } = await partyMilestone(db, caller, milestoneId);
  const list = `drafts:${milestone.id}`;
  const before = page.cursor
    ? decodeCursor(list, page.cursor, z.number().int().positive())
    : undefined;
  const rows = await listDrafts(db, milestone.id, { before, limit: page.limit + 1 });
  return toPage(
    rows,
    page.limit,
    (d) => draftJson(d, milestone, deal),
    (d) => encodeCursor(list, d.revision),
  );
}

/** GET /api/milestones/:id/drafts/:draftId — both parties. */
export async function getDraft(
  db: DbOrTx,
  caller: Caller,
  milestoneId: string,
  draftId: string,
): Promise<DraftJson> {
  const { deal, milestone } = await partyMilestone(db, caller, milestoneId);
  const draft = await findDraft(db, milestone.id, draftId);
  if (!draft) throw notFound("Draft");
  return draftJson(draft, milestone, deal);
}

/** GET /api/milestones/:id/drafts/:draftId/media — the file, to the deal's two parties only. */
export async function draftMediaResponse(
  db: DbOrTx,
  storage: ObjectStorage,
  caller: Caller,
  milestoneId: string,
  draftId: string,
  range?: RangeRequest,
): Promise<Response> {
  const { milestone } = await partyMilestone(db, caller, milestoneId);
  const draft = await findDraft(db, milestone.id, draftId);
  if (!draft?.mediaKey) throw notFound("Draft media");
  const ext = draft.mediaKey.split(".").at(-1) ?? "bin";
  return serveObject(
    storage,
    draft.mediaKey,
    `draft-${draft.revision}.${ext}`,
    "Draft media",
    range,
  );
}

type Review = { status: "approved" } | { status: "changes_requested"; message: string };

/**
 * The brand's answer to a draft waiting for it: approve, or ask for changes with a message.
 * Exactly once: the row changes only while `submitted` (a conditional update), and only the
 * call that changed it records the event. Repeating the same answer returns the draft as it
 * is (200, nothing recorded again); answering a draft already answered otherwise, or replaced
 * by a newer revision, is 409 invalid_state.
 */
export async function reviewDraft(
  db: Db,
  caller: Caller,
  milestoneId: string,
  draftId: string,
  review: Review,
): Promise<DraftJson> {
  const { deal, milestone } = await partyMilestone(db, caller, milestoneId);
  if (deal.brandId !== caller.id)
    throw new AppError("forbidden", "Only the deal's brand can approve drafts or ask for changes.");
  if (deal.status !== "active")
    throw new AppError("invalid_state", `The deal is ${deal.status}; its drafts are closed.`);
  const message = review.status === "changes_requested" ? review.message : null;
  const changed = await db.transaction(async (tx) => {
    const row = await reviewSubmittedDraft(tx, milestone.id, draftId, {
      status: review.status,
      reviewedBy: caller.id,
      message,
    });
    if (row)
      await recordEvent(tx, {
        dealId: deal.id,
        milestoneId: milestone.id,
        type: review.status === "approved" ? "draft.approved" : "draft.changes_requested",
        actorId: caller.id,
        data: {
          draftId: row.id,
          revision: row.revision,
          ...(message ? { message } : {}),
        },
      });
    return row;
  });
  if (changed) return draftJson(changed, milestone, deal);
  const current = await findDraft(db, milestone.id, draftId);
  if (!current) throw notFound("Draft");
  if (current.status === review.status) return draftJson(current, milestone, deal);
  const why =
    current.status === "superseded"
      ? `revision ${current.revision} was replaced by a newer draft`
      : current.status === "approved"
        ? `revision ${current.revision} is already approved`
        : `changes were already requested on revision ${current.revision}`;
  throw new AppError("invalid_state", `This draft cannot be answered: ${why}.`, {
    details: { status: current.status, revision: current.revision },
  });
}
