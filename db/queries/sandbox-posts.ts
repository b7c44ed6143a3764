import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type SandboxPost, sandboxPosts } from "@/db/schema";

// Posts on the built-in sandbox platform (app/social).

export async function insertSandboxPost(
  db: DbOrTx,
  p: {
    userId: string;
    handle: string;
    caption: string;
    mediaType: string;
    paidPartnership?: boolean;
  },
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

const createdAtText = sql<string>`to_char(${sandboxPosts.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type SandboxPostRow = SandboxPost & { createdAtText: string };

/**
 * The user's posts, newest first, `limit` of them after the (createdAt, id) position a
 * previous page ended on (microseconds, as the column keeps them: rows inserted meanwhile
 * never shift a later page).
 */
export async function listSandboxPosts(
  db: DbOrTx,
  p: { userId: string; limit: number; before?: { createdAt: string; id: string } },
): Promise<SandboxPostRow[]> {
  const position = p.before
    ? sql`(${sandboxPosts.createdAt}, ${sandboxPosts.id}) < (${p.before.createdAt}::timestamptz, ${p.before.id}::uuid)`
    : undefined;
  const rows = await db
    .select({ post: sandboxPosts, createdAtText })
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.userId, p.userId), isNull(sandboxPosts.deletedAt), position))
    .orderBy(desc(sandboxPosts.createdAt), desc(sandboxPosts.id))
    .limit(p.limit);
  return rows.map((r) => ({ ...r.post, createdAtText: r.createdAtText }));
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
