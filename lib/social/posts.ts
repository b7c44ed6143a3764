import { z } from "zod";
import type { Db } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import {
  findHandle,
  HANDLE_UNIQUE_INDEXES,
  handleHolder,
  upsertHandle,
} from "@/db/queries/creator-handles";
import {
  deleteSandboxPost,
  findSandboxPost,
  insertSandboxPost,
  listSandboxPosts,
} from "@/db/queries/sandbox-posts";
import type { SandboxPost, User } from "@/db/schema";
import { iso, nextCursor } from "@/lib/api/fields";
import { sandboxOrigin, sandboxSocialEnabled } from "@/lib/env";
import { AppError, notFound } from "@/lib/errors";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";
import { handleCodeFor, handleText } from "@/lib/profile/handles";
import { sandboxPostId, sandboxPostUrl } from "@/lib/verify/evidence/sandbox";

// The sandbox social platform of the embedded default: a creator publishes a post (handle,
// caption, a media placeholder) and gets a URL that the verifier reads like any platform's,
// through its oEmbed endpoint. The handle is the publisher's own: the first post declares it
// as their sandbox handle (if nobody else has), later posts must use it. Declared is not
// verified: like any platform's, a sandbox handle counts once a post of it carries the
// handle's one-time code and the creator asks for the check (lib/profile/verify-handle.ts).

export const sandboxMediaTypes = ["video", "photo", "story"] as const;

export const publishBody = z.object({
  handle: handleText,
  caption: z.string().trim().min(1, "must not be empty").max(2_200),
  mediaType: z.enum(sandboxMediaTypes).default("video"),
  /**
   * Show the sandbox's "Paid partnership" label on the post, as Instagram, TikTok and
   * YouTube show theirs; the verifier accepts it as the disclosure.
   */
  paidPartnership: z.boolean().default(false),
});

export const oembedQuery = z.object({
  url: z.string().min(1).max(2_000),
  format: z.enum(["json"]).default("json"),
});

export const sandboxPostSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    handle: z.string(),
    caption: z.string(),
    mediaType: z.string(),
    paidPartnership: z.boolean().describe("The post shows the sandbox's paid-partnership label"),
    createdAt: iso,
    deleted: z.boolean(),
  })
  .meta({ id: "SandboxPost" });
export const sandboxPostResponse = z.object({ post: sandboxPostSchema });
export const sandboxPostPageResponse = z.object({ posts: z.array(sandboxPostSchema), nextCursor });
export const oembedResponse = z
  .object({
    version: z.literal("1.0"),
    type: z.enum(["photo", "video"]),
    provider_name: z.string(),
    provider_url: z.string(),
    url: z.string(),
    title: z.string(),
    author_name: z.string(),
    author_url: z.string(),
    media_type: z.string(),
    paid_partnership: z
      .boolean()
      .describe("The sandbox's own field: the post shows its paid-partnership label"),
    published_at: iso,
    thumbnail_url: z.string().nullable(),
  })
  .meta({ id: "OEmbed" });
export type SandboxPostJson = z.infer<typeof sandboxPostSchema>;

export function sandboxPostJson(p: SandboxPost): SandboxPostJson {
  return {
    id: p.id,
    url: sandboxPostUrl(p.id),
    handle: p.handle,
    caption: p.caption,
    mediaType: p.mediaType,
    paidPartnership: p.paidPartnership,
    createdAt: p.createdAt.toISOString(),
    deleted: p.deletedAt !== null,
  };
}

function requireSandbox(): void {
  if (!sandboxSocialEnabled()) throw notFound("Sandbox platform");
}

type Caller = Pick<User, "id">;

export async function publishPost(
  db: Db,
  caller: Caller,
  input: z.infer<typeof publishBody>,
): Promise<SandboxPostJson> {
  requireSandbox();
  const post = await db
    .transaction(async (tx) => {
      const mine = await findHandle(tx, caller.id, "sandbox");
      if (mine && mine.handle !== input.handle)
        throw new AppError(
          "conflict",
          `You publish on the sandbox as @${mine.handle}; change it on your profile first.`,
        );
      if (!mine) {
        if (await handleHolder(tx, "sandbox", input.handle, caller.id))
          throw new AppError("conflict", `@${input.handle} is taken on the sandbox.`);
        await upsertHandle(tx, {
          userId: caller.id,
          platform: "sandbox",
          handle: input.handle,
          ...handleCodeFor(),
        });
      }
      return insertSandboxPost(tx, { userId: caller.id, ...input });
    })
    .catch((err: unknown) => {
      // Claimed by someone else between the check and the write.
      if (HANDLE_UNIQUE_INDEXES.some((i) => isUniqueViolation(err, i)))
        throw new AppError("conflict", `@${input.handle} is taken on the sandbox.`);
      throw err;
    });
  return sandboxPostJson(post);
}

const postPosition = z.object({ createdAt: z.string().max(40), id: z.uuid() });

/** GET /api/social/posts: the caller's posts, newest first, a page at a time. */
export async function myPosts(
  db: Db,
  caller: Caller,
  page: PageQuery,
): Promise<Page<SandboxPostJson>> {
  requireSandbox();
  const list = `sandbox-posts:${caller.id}`;
  const before = page.cursor ? decodeCursor(list, page.cursor, postPosition) : undefined;
  const rows = await listSandboxPosts(db, { userId: caller.id, limit: page.limit + 1, before });
  return toPage(rows, page.limit, sandboxPostJson, (r) =>
    encodeCursor(list, { createdAt: r.createdAtText, id: r.id }),
  );
}

export async function removePost(db: Db, caller: Caller, id: string): Promise<void> {
  requireSandbox();
  if (!(await deleteSandboxPost(db, caller.id, id))) throw notFound("Post");
}

/** A post for its public page: null when it does not exist (deleted ones are returned). */
export async function publicPost(db: Db, id: string): Promise<SandboxPost | null> {
  if (!sandboxSocialEnabled() || !z.uuid().safeParse(id).success) return null;
  return findSandboxPost(db, id);
}

/** The oEmbed answer for a sandbox post URL; 404 for anything unknown or deleted. */
export async function oembedFor(db: Db, url: string): Promise<Record<string, unknown>> {
  requireSandbox();
  const id = sandboxPostId(url);
  const post = id ? await findSandboxPost(db, id) : null;
  if (!post || post.deletedAt) throw notFound("Post");
  const origin = sandboxOrigin();
  return {
    version: "1.0",
    type: post.mediaType === "photo" ? "photo" : "video",
    provider_name: "Milestone Sandbox",
    provider_url: `${origin}/social`,
    url: sandboxPostUrl(post.id, origin),
    title: post.caption,
    author_name: post.handle,
    author_url: `${origin}/social/@${post.handle}`,
    media_type: post.mediaType,
    // Not an oEmbed field: the sandbox's own, read by its adapter as the platform's label.
    paid_partnership: post.paidPartnership,
    published_at: post.createdAt.toISOString(),
    thumbnail_url: null,
  };
}
