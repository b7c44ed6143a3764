import type { DbOrTx } from "@/db/client";
import { claimEvidenceKey, revisionPost } from "@/db/queries/evidence-claims";
import { AppError } from "@/lib/errors";
import { type EvidenceKey, payingKeys, submittedKeys } from "./post-identity";

// One post, one payment. A post is the evidence of one milestone at a time, across every
// deal and creator: its keys (lib/deals/post-identity.ts) are claimed in the database
// (evidence_claims, unique per key) in the transaction that stores the deliverable, and
// again, with the post's canonical URL and content hash once it was read, in the
// transaction that creates the settlement paying it (lib/settle/settle.ts claim()).
//
// Release: a claim no settlement rests on is free for another milestone once its own is
// rejected (the brand's or the gate's verdict) or refunded, its deal is cancelled or
// expired, or it moved on to a newer revision. Nothing deletes it: the next claimant takes
// it over, in its own transaction, under the row's lock. A rejected milestone whose post was
// taken meanwhile gets 409 if it is paid after all (an appeal): the pay path claims again,
// so a post is never paid twice, whichever path pays. A settled claim is never released.

type Holder = { milestoneId: string; dealId: string };

/** 409 evidence_already_used: says where the post is used only to the deal's own parties. */
function alreadyUsed(holder: Holder | null, dealId: string, settling: boolean): AppError {
  const sameDeal = holder?.dealId === dealId;
  const where = sameDeal ? "another milestone of this deal" : "a milestone of another deal";
  return new AppError(
    "evidence_already_used",
    settling
      ? `This post is already the evidence of ${where}; a post is paid once, so this milestone cannot be paid with it.`
      : `This post is already the evidence of ${where}; a post can be the deliverable of one milestone only. Submit a different post.`,
    sameDeal && holder ? { details: { milestoneId: holder.milestoneId } } : {},
  );
}

/** Claims every key for the milestone's revision, or throws 409 evidence_already_used. */
async function claimKeys(
  tx: DbOrTx,
  target: { milestoneId: string; dealId: string; revision: number },
  keys: EvidenceKey[],
  settle: boolean,
): Promise<void> {
  for (const k of keys) {
    let outcome = await claimEvidenceKey(tx, k, target.milestoneId, target.revision, settle);
    // The holder's row vanished between the statements (its milestone deleted): once more.
    if (!outcome.held && !outcome.holder)
      outcome = await claimEvidenceKey(tx, k, target.milestoneId, target.revision, settle);
    if (!outcome.held) throw alreadyUsed(outcome.holder, target.dealId, settle);
  }
}

/** With a new deliverable, in its transaction: its URL becomes this milestone's. */
export function claimSubmittedPost(
  tx: DbOrTx,
  target: { milestoneId: string; dealId: string; revision: number },
  url: string,
): Promise<void> {
  return claimKeys(tx, target, submittedKeys(url), false);
}

/**
 * The keys a revision is paid on (lib/deals/post-identity.ts payingKeys): its submitted
 * URL's, and once its post was read, the canonical URL the platform named and the
 * evidence's content hash. One read; the settle path sends it with its locks.
 */
export async function paidPostKeys(
  tx: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<EvidenceKey[]> {
  const post = await revisionPost(tx, milestoneId, revision);
  return post ? payingKeys(post.url, post.evidence) : [];
}

/**
 * With the settlement that pays the revision, in its transaction: its keys (paidPostKeys)
 * are claimed for good, or 409 evidence_already_used when another milestone holds any.
 */
export function claimPaidPost(
  tx: DbOrTx,
  target: { milestoneId: string; dealId: string; revision: number },
  keys: EvidenceKey[],
): Promise<void> {
  return claimKeys(tx, target, keys, true);
}
