import "server-only";
import { randomInt } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import {
  type CreatorHandle,
  deleteHandle,
  HANDLE_UNIQUE_INDEXES,
  handleHolder,
  listHandles,
  upsertHandle,
} from "@/db/queries/creator-handles";
import type { User } from "@/db/schema";
import { iso } from "@/lib/api/fields";
import { now } from "@/lib/clock";
import { AppError, notFound } from "@/lib/errors";

// A creator's handles per platform: a post's author must match the handle declared for the
// post's platform, and the handle must be verified (lib/verify/checks evidenceProblems). One
// user per handle and platform. A declared handle gets a one-time code; the creator places it
// in a post by the handle and asks for a check (lib/profile/verify-handle.ts).

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

/** How long a verification code can be placed and checked. */
export const HANDLE_CODE_TTL_MS = 3 * 24 * 3_600_000;
const CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A fresh one-time code, e.g. "milestone-verify-k3p9x2qa" (40 random bits). */
export function newHandleCode(): string {
  let tail = "";
  for (let i = 0; i < 8; i++) tail += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `milestone-verify-${tail}`;
}

/** The code fields of a declaration made at `at`: upsertHandle keeps a still-valid code. */
export function handleCodeFor(at: Date = now()): { code: string; expiresAt: Date; now: Date } {
  return { code: newHandleCode(), expiresAt: new Date(at.getTime() + HANDLE_CODE_TTL_MS), now: at };
}

export const handleSchema = z
  .object({
    platform: z.string(),
    handle: z.string(),
    createdAt: iso,
    verified: z.boolean().describe("Proved the caller's: only then do its posts count"),
    verifiedAt: iso.nullable(),
    verification: z
      .object({
        code: z.string().describe("Place it in a post by the handle, then ask for the check"),
        expiresAt: iso,
        expired: z.boolean(),
      })
      .nullable()
      .describe("While unverified: the one-time code to place"),
  })
  .meta({ id: "Handle" });
export const handleListResponse = z.object({ handles: z.array(handleSchema) });
export const handleResponse = z.object({ handle: handleSchema });
export type HandleJson = z.infer<typeof handleSchema>;

export const handleJson = (h: CreatorHandle, at: Date = now()): HandleJson => ({
  platform: h.platform,
  handle: h.handle,
  createdAt: h.createdAt.toISOString(),
  verified: h.verifiedAt !== null,
  verifiedAt: h.verifiedAt?.toISOString() ?? null,
  verification:
    h.verifiedAt === null && h.verificationCode && h.verificationExpiresAt
      ? {
          code: h.verificationCode,
          expiresAt: h.verificationExpiresAt.toISOString(),
          expired: h.verificationExpiresAt.getTime() <= at.getTime(),
        }
      : null,
});

type Caller = Pick<User, "id">;

export async function getHandles(db: Db, caller: Caller): Promise<HandleJson[]> {
  const at = now();
  return (await listHandles(db, caller.id)).map((h) => handleJson(h, at));
}

/**
 * Declares (or changes) the caller's handle on a platform. 409 when another user holds it
 * (verified it; on the sandbox, declared it): a post can be claimed by one creator only.
 * Another user's unverified claim does not stop it: whoever verifies first holds the handle.
 * A new or changed handle is unverified, with a fresh code; the same handle again keeps its
 * verification, or gets a new code once its code has expired.
 */
export async function putHandle(
  db: Db,
  caller: Caller,
  input: z.infer<typeof putHandleBody>,
): Promise<HandleJson> {
  const taken = () =>
    new AppError(
      "conflict",
      `@${input.handle} on ${input.platform} is already ${input.platform === "sandbox" ? "declared" : "verified"} by another account.`,
    );
  try {
    return await db.transaction(async (tx) => {
      if (await handleHolder(tx, input.platform, input.handle, caller.id)) throw taken();
      return handleJson(
        await upsertHandle(tx, { userId: caller.id, ...input, ...handleCodeFor() }),
      );
    });
  } catch (err) {
    // Claimed by someone else between the check and the write.
    if (HANDLE_UNIQUE_INDEXES.some((i) => isUniqueViolation(err, i))) throw taken();
    throw err;
  }
}

export async function removeHandle(db: Db, caller: Caller, platform: string): Promise<void> {
  if (!(await deleteHandle(db, caller.id, platform))) throw notFound("Handle");
}
