import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import {
  dropUnverifiedClaims,
  findHandle,
  HANDLE_UNIQUE_INDEXES,
  handleHolder,
  lockHandleClaims,
  markHandleVerified,
} from "@/db/queries/creator-handles";
import type { User } from "@/db/schema";
import { now } from "@/lib/clock";
import { AppError, notFound } from "@/lib/errors";
import { type EvidenceOptions, fetchEvidence } from "@/lib/verify/evidence";
import { type HandleJson, handleJson, handlePlatforms, handleText } from "./handles";

// A creator proves a declared handle is theirs: they place the handle's one-time code in a
// post by that handle and ask for a check. The post is read through the evidence adapters
// (lib/verify/evidence: the sandbox's and the platforms' oEmbed, OpenGraph), exactly as a
// deliverable is: the handle is verified when the post is on the handle's platform, its
// author as the platform names it is the handle, and its text holds the code before the
// code expires. On the sandbox of the embedded default that is a sandbox post (app/social).
// Several accounts may claim a handle unverified (a squatter cannot lock the owner out); the
// first to verify it holds it, and the other claims are removed.
//
// Seams left open: a code in the account's bio needs a profile reader per platform (the
// adapters read posts only), and a platform's OAuth ("sign in with TikTok" proving the
// account) where one is configured would mark the handle verified without a code; neither
// exists yet. Only this module sets verified_at.

export const verifyHandleBody = z.object({
  platform: z.enum(handlePlatforms),
  handle: handleText,
  postUrl: z
    .string()
    .trim()
    .min(1, "must be the URL of a post by the handle that contains its code")
    .max(2_000)
    .describe("A post by the handle whose text contains the handle's verification code"),
});

export type HandleUnverifiedReason =
  | "no_code"
  | "code_expired"
  | "post_unreadable"
  | "wrong_platform"
  | "wrong_author"
  | "code_missing"
  | "changed";

function verifiedElsewhere(input: { platform: string; handle: string }): AppError {
  return new AppError(
    "conflict",
    `@${input.handle} on ${input.platform} is verified by another account.`,
  );
}

function unverified(reason: HandleUnverifiedReason, message: string): AppError {
  return new AppError("handle_unverified", message, { details: { reason } });
}

/**
 * Checks the post at `postUrl` for the caller's code for this handle and marks the handle
 * verified. 404 when the caller has not declared this handle on this platform, 409 conflict
 * when another account verified it meanwhile (removing the caller's claim); 409
 * handle_unverified (details.reason) when the post does not prove it. Verified already: the
 * handle as it is. The post is read with no transaction open.
 */
export async function verifyHandle(
  db: Db,
  caller: Pick<User, "id">,
  input: z.infer<typeof verifyHandleBody>,
  options: EvidenceOptions = {},
): Promise<HandleJson> {
  const row = await findHandle(db, caller.id, input.platform);
  if (!row || row.handle !== input.handle) {
    // A claim another account's verification removed is not "unknown": say who won.
    if (
      input.platform !== "sandbox" &&
      (await handleHolder(db, input.platform, input.handle, caller.id))
    )
      throw verifiedElsewhere(input);
    throw notFound("Handle");
  }
  if (row.verifiedAt) return handleJson(row);
  const code = row.verificationCode;
  if (!code || !row.verificationExpiresAt)
    throw unverified(
      "no_code",
      "This handle has no verification code yet: save it again to get one.",
    );
  if (row.verificationExpiresAt.getTime() <= now().getTime())
    throw unverified(
      "code_expired",
      "This handle's verification code has expired: save the handle again for a new code, and place that one.",
    );

  const evidence = await fetchEvidence(input.postUrl, options);
  if (evidence.status !== "ok") throw unverified("post_unreadable", evidence.error);
  const post = evidence.record;
  if (post.platform !== input.platform)
    throw unverified(
      "wrong_platform",
      `That URL is not a post on ${input.platform} (it was read as ${post.platform === "web" ? "a web page" : `a post on ${post.platform}`}).`,
    );
  if (post.authorHandle !== input.handle)
    throw unverified(
      "wrong_author",
      post.authorHandle
        ? `That post is by @${post.authorHandle}, not @${input.handle}: the code must be placed by the handle itself.`
        : `The platform does not name that post's author, so it cannot show that @${input.handle} placed the code.`,
    );
  if (!post.caption.toLowerCase().includes(code))
    throw unverified("code_missing", `The code ${code} is not in that post's text.`);

  // Verified as the caller's: other accounts' unverified claims of it go, in the same
  // transaction. The claims are locked first, in one order, so racing checks queue (the
  // later one then finds its claim gone); the partial unique index is the backstop.
  const claim = { userId: caller.id, platform: input.platform, handle: input.handle };
  const verified = await db
    .transaction(async (tx) => {
      await lockHandleClaims(tx, input.platform, input.handle);
      const mine = await markHandleVerified(tx, { ...claim, code, at: now() });
      if (mine) await dropUnverifiedClaims(tx, claim);
      return mine;
    })
    .catch((err: unknown) => {
      if (HANDLE_UNIQUE_INDEXES.some((i) => isUniqueViolation(err, i)))
        throw verifiedElsewhere(input);
      throw err;
    });
  if (verified) return handleJson(verified);
  // Changed (or verified by a concurrent check) while the post was read.
  const current = await findHandle(db, caller.id, input.platform);
  if (current?.verifiedAt && current.handle === input.handle) return handleJson(current);
  throw unverified(
    "changed",
    "The handle or its code changed while the post was read: check again.",
  );
}
