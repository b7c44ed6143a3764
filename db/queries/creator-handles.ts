import { and, asc, eq, gt, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { creatorHandles } from "@/db/schema";

// A creator's declared handle per platform (one per platform). A declared handle counts once
// verified: the creator placed its one-time code in a post by that handle
// (lib/profile/verify-handle.ts). A verified handle belongs to one user per platform, so two
// creators cannot both claim a post.

export type CreatorHandle = typeof creatorHandles.$inferSelect;

/**
 * A handle on a platform is held by one account once verified (a verified claim removes
 * the others' unverified ones), and on the sandbox, where the platform is this app, by the
 * account that declared it first. Until verified, several accounts may claim one handle
 * elsewhere: a squatter's unproved claim cannot lock the real owner out.
 */
export const HANDLE_UNIQUE_INDEXES = [
  "creator_handles_verified_key",
  "creator_handles_sandbox_key",
];

export function listHandles(db: DbOrTx, userId: string): Promise<CreatorHandle[]> {
  return db
    .select()
    .from(creatorHandles)
    .where(eq(creatorHandles.userId, userId))
    .orderBy(asc(creatorHandles.platform));
}

export async function findHandle(
  db: DbOrTx,
  userId: string,
  platform: string,
): Promise<CreatorHandle | null> {
  const [row] = await db
    .select()
    .from(creatorHandles)
    .where(and(eq(creatorHandles.userId, userId), eq(creatorHandles.platform, platform)));
  return row ?? null;
}

/**
 * The user (other than `userId`) who holds this handle on this platform, if any: verified
 * it, or on the sandbox declared it (HANDLE_UNIQUE_INDEXES).
 */
export async function handleHolder(
  db: DbOrTx,
  platform: string,
  handle: string,
  userId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ userId: creatorHandles.userId })
    .from(creatorHandles)
    .where(
      and(
        eq(creatorHandles.platform, platform),
        eq(creatorHandles.handle, handle),
        ne(creatorHandles.userId, userId),
        platform === "sandbox" ? undefined : isNotNull(creatorHandles.verifiedAt),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}

/**
 * Locks every account's claim of a handle, in one order (user id): two verifications of one
 * handle then queue instead of each holding its own row and waiting for the other's.
 */
export async function lockHandleClaims(
  db: DbOrTx,
  platform: string,
  handle: string,
): Promise<string[]> {
  const rows = await db
    .select({ userId: creatorHandles.userId })
    .from(creatorHandles)
    .where(and(eq(creatorHandles.platform, platform), eq(creatorHandles.handle, handle)))
    .orderBy(asc(creatorHandles.userId))
    .for("update");
  return rows.map((r) => r.userId);
}

/** Removes other users' unverified claims of a handle (it is being verified as `userId`'s). */
export async function dropUnverifiedClaims(
  db: DbOrTx,
  p: { userId: string; platform: string; handle: string },
): Promise<number> {
  const gone = await db
    .delete(creatorHandles)
    .where(
      and(
        eq(creatorHandles.platform, p.platform),
        eq(creatorHandles.handle, p.handle),
        ne(creatorHandles.userId, p.userId),
        isNull(creatorHandles.verifiedAt),
      ),
    )
    .returning({ userId: creatorHandles.userId });
  return gone.length;
}

/**
 * Declares a handle. A new or changed handle is unverified, with a fresh code (`code`,
 * valid until `expiresAt`); re-declaring the same handle keeps its verification, or its
 * code while that is still valid (else the fresh one replaces it).
 */
export async function upsertHandle(
  db: DbOrTx,
  p: { userId: string; platform: string; handle: string; code: string; expiresAt: Date; now: Date },
): Promise<CreatorHandle> {
  const t = creatorHandles;
  const same = sql`${t.handle} = excluded.handle`;
  const keep = sql`${same} and (${t.verifiedAt} is not null or ${t.verificationExpiresAt} > ${p.now.toISOString()}::timestamptz)`;
  const [row] = await db
    .insert(t)
    .values({
      userId: p.userId,
      platform: p.platform,
      handle: p.handle,
      verificationCode: p.code,
      verificationExpiresAt: p.expiresAt,
    })
    .onConflictDoUpdate({
      target: [t.userId, t.platform],
      set: {
        handle: p.handle,
        verifiedAt: sql`case when ${same} then ${t.verifiedAt} end`,
        verificationCode: sql`case when ${keep} then ${t.verificationCode} else excluded.verification_code end`,
        verificationExpiresAt: sql`case when ${keep} then ${t.verificationExpiresAt} else excluded.verification_expires_at end`,
      },
    })
    .returning();
  if (!row) throw new Error("upsert returned no row");
  return row;
}

/**
 * Marks the caller's handle verified, if it is still the one whose `code` was found (not
 * changed, re-coded, expired or verified meanwhile). The code is spent. Null when nothing matched.
 */
export async function markHandleVerified(
  db: DbOrTx,
  p: { userId: string; platform: string; handle: string; code: string; at: Date },
): Promise<CreatorHandle | null> {
  const [row] = await db
    .update(creatorHandles)
    .set({ verifiedAt: p.at, verificationCode: null, verificationExpiresAt: null })
    .where(
      and(
        eq(creatorHandles.userId, p.userId),
        eq(creatorHandles.platform, p.platform),
        eq(creatorHandles.handle, p.handle),
        eq(creatorHandles.verificationCode, p.code),
        gt(creatorHandles.verificationExpiresAt, p.at),
        isNull(creatorHandles.verifiedAt),
      ),
    )
    .returning();
  return row ?? null;
}

export async function deleteHandle(db: DbOrTx, userId: string, platform: string): Promise<boolean> {
  const gone = await db
    .delete(creatorHandles)
    .where(and(eq(creatorHandles.userId, userId), eq(creatorHandles.platform, platform)))
    .returning({ platform: creatorHandles.platform });
  return gone.length > 0;
}
