import { and, asc, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { creatorHandles } from "@/db/schema";

// A creator's declared handle per platform (one per platform). A handle belongs to one user
// per platform: a second user cannot declare it, so two creators cannot both claim a post.

export type CreatorHandle = typeof creatorHandles.$inferSelect;

export const HANDLE_UNIQUE_INDEX = "creator_handles_platform_handle_key";

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

/** The user (other than `userId`) who already declared this handle on this platform, if any. */
export async function handleOwner(
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
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}

export async function upsertHandle(
  db: DbOrTx,
  p: { userId: string; platform: string; handle: string },
): Promise<CreatorHandle> {
  const [row] = await db
    .insert(creatorHandles)
    .values(p)
    .onConflictDoUpdate({
      target: [creatorHandles.userId, creatorHandles.platform],
      set: { handle: p.handle },
    })
    .returning();
  if (!row) throw new Error("upsert returned no row");
  return row;
}

export async function deleteHandle(db: DbOrTx, userId: string, platform: string): Promise<boolean> {
  const gone = await db
    .delete(creatorHandles)
    .where(and(eq(creatorHandles.userId, userId), eq(creatorHandles.platform, platform)))
    .returning({ platform: creatorHandles.platform });
  return gone.length > 0;
}
