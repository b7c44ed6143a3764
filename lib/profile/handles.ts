import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import {
  type CreatorHandle,
  deleteHandle,
  HANDLE_UNIQUE_INDEX,
  handleOwner,
  listHandles,
  upsertHandle,
} from "@/db/queries/creator-handles";
import type { User } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";

// A creator's handles per platform: a post's author must match the handle declared for the
// post's platform (lib/verify/checks evidenceProblems). One user per handle and platform.

export const handlePlatforms = ["instagram", "tiktok", "x", "youtube", "sandbox"] as const;
export type HandlePlatform = (typeof handlePlatforms)[number];

export const handleText = z
  .string()
  .trim()
  .transform((h) => h.replace(/^@+/, "").toLowerCase())
  .pipe(
    z
      .string()
      .regex(/^[a-z0-9._-]{1,50}$/, "must be 1–50 letters, digits, dots, dashes or underscores"),
  );

export const putHandleBody = z.object({ platform: z.enum(handlePlatforms), handle: handleText });
export const deleteHandleQuery = z.object({ platform: z.enum(handlePlatforms) });

export type HandleJson = { platform: string; handle: string; createdAt: string };

const handleJson = (h: CreatorHandle): HandleJson => ({
  platform: h.platform,
  handle: h.handle,
  createdAt: h.createdAt.toISOString(),
});

type Caller = Pick<User, "id">;

export async function getHandles(db: Db, caller: Caller): Promise<HandleJson[]> {
  return (await listHandles(db, caller.id)).map(handleJson);
}

/**
 * Declares (or changes) the caller's handle on a platform. 409 when another user has
 * declared it: a post can be claimed by one creator only.
 */
export async function putHandle(
  db: Db,
  caller: Caller,
  input: z.infer<typeof putHandleBody>,
): Promise<HandleJson> {
  const taken = () =>
    new AppError(
      "conflict",
      `@${input.handle} on ${input.platform} is already declared by another account.`,
    );
  try {
    return await db.transaction(async (tx) => {
      if (await handleOwner(tx, input.platform, input.handle, caller.id)) throw taken();
      return handleJson(await upsertHandle(tx, { userId: caller.id, ...input }));
    });
  } catch (err) {
    // Claimed by someone else between the check and the write.
    if (isUniqueViolation(err, HANDLE_UNIQUE_INDEX)) throw taken();
    throw err;
  }
}

export async function removeHandle(db: Db, caller: Caller, platform: string): Promise<void> {
  if (!(await deleteHandle(db, caller.id, platform))) throw notFound("Handle");
}
