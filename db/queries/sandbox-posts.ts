import { and, desc, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type SandboxPost, sandboxPosts } from "@/db/schema";

// Posts on the built-in sandbox platform (app/social).

export async function insertSandboxPost(
  db: DbOrTx,
  p: { userId: string; handle: string; caption: string; mediaType: string },
): Promise<SandboxPost> {
  const [row] = await db.insert(sandboxPosts).values(p).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** A post by id for anyone to see (the public post page and oEmbed), deleted ones included. */
export async function findSandboxPost(db: DbOrTx, id: string): Promise<SandboxPost | null> {
  const [row] = await db.select().from(sandboxPosts).where(eq(sandboxPosts.id, id));
  return row ?? null;
}

export function listSandboxPosts(db: DbOrTx, userId: string, limit = 50): Promise<SandboxPost[]> {
  return db
    .select()
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.userId, userId), isNull(sandboxPosts.deletedAt)))
    .orderBy(desc(sandboxPosts.createdAt))
    .limit(limit);
}

/** Marks the owner's post deleted; false when it is not theirs or already deleted. */
export async function deleteSandboxPost(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const gone = await db
    .update(sandboxPosts)
    .set({ deletedAt: new Date() })
    .where(
      and(eq(sandboxPosts.id, id), eq(sandboxPosts.userId, userId), isNull(sandboxPosts.deletedAt)),
    )
    .returning({ id: sandboxPosts.id });
  return gone.length > 0;
}
