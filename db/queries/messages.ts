import { and, desc, eq, lt, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type DealMessage, dealMessageReads, dealMessages } from "@/db/schema";

// A deal's message thread and each party's read marker (lib/deals/messages.ts). Callers
// reach these through a deal they checked the caller is a party of.

export async function insertMessage(
  tx: DbOrTx,
  values: {
    dealId: string;
    authorId: string;
    body: string;
    attachment?: DealMessage["attachment"];
  },
): Promise<DealMessage | undefined> {
  const [row] = await tx.insert(dealMessages).values(values).returning();
  return row;
}

/** One page of the thread, newest first, before sequence number `before` (exclusive). */
export async function listMessagesPage(
  db: DbOrTx,
  dealId: string,
  p: { before?: number; limit: number },
): Promise<DealMessage[]> {
  return db
    .select()
    .from(dealMessages)
    .where(
      and(
        eq(dealMessages.dealId, dealId),
        p.before !== undefined ? lt(dealMessages.seq, p.before) : undefined,
      ),
    )
    .orderBy(desc(dealMessages.seq))
    .limit(p.limit);
}

/** A message of this deal (undefined: not one of its messages). */
export async function findDealMessage(
  db: DbOrTx,
  dealId: string,
  messageId: string,
): Promise<DealMessage | undefined> {
  const [row] = await db
    .select()
    .from(dealMessages)
    .where(and(eq(dealMessages.id, messageId), eq(dealMessages.dealId, dealId)));
  return row;
}

/** The sequence number of a message of this deal (undefined: not one of its messages). */
export async function findMessageSeq(
  db: DbOrTx,
  dealId: string,
  messageId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ seq: dealMessages.seq })
    .from(dealMessages)
    .where(and(eq(dealMessages.id, messageId), eq(dealMessages.dealId, dealId)));
  return row?.seq;
}

/** The newest message's sequence number in the deal (0: none). */
export async function latestMessageSeq(db: DbOrTx, dealId: string): Promise<number> {
  const [row] = await db
    .select({ seq: sql<number>`coalesce(max(${dealMessages.seq}), 0)::bigint` })
    .from(dealMessages)
    .where(eq(dealMessages.dealId, dealId));
  return Number(row?.seq ?? 0);
}

/** The other party's messages `userId` has not read yet (after their read marker). */
export async function countUnreadMessages(
  db: DbOrTx,
  dealId: string,
  userId: string,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(dealMessages)
    .where(
      and(
        eq(dealMessages.dealId, dealId),
        ne(dealMessages.authorId, userId),
        sql`${dealMessages.seq} > coalesce((select r.last_read_seq from ${dealMessageReads} r
              where r.deal_id = ${dealId} and r.user_id = ${userId}), 0)`,
      ),
    );
  return row?.n ?? 0;
}

/** Moves `userId`'s read marker on the deal up to `seq` (never back). */
export async function markMessagesReadUpTo(
  db: DbOrTx,
  dealId: string,
  userId: string,
  seq: number,
): Promise<void> {
  await db
    .insert(dealMessageReads)
    .values({ dealId, userId, lastReadSeq: seq })
    .onConflictDoUpdate({
      target: [dealMessageReads.dealId, dealMessageReads.userId],
      set: {
        lastReadSeq: sql`greatest(${dealMessageReads.lastReadSeq}, excluded.last_read_seq)`,
        updatedAt: new Date(),
      },
    });
}
