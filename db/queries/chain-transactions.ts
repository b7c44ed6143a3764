import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type ChainTransaction, chainTransactions } from "@/db/schema";

// Lookups on the sender's transaction log (lib/chain/sender.ts writes it).

/**
 * The newest unfinished (pending or submitted) transaction recorded for `purpose` on this
 * chain, other than `excludeId`: lets an idempotent write resume its earlier attempt.
 */
export async function findUnfinishedByPurpose(
  db: DbOrTx,
  p: { chainId: number; purpose: string; excludeId?: string },
): Promise<ChainTransaction | null> {
  const [row] = await db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, p.chainId),
        eq(chainTransactions.purpose, p.purpose),
        inArray(chainTransactions.status, ["pending", "submitted"]),
        p.excludeId ? ne(chainTransactions.id, p.excludeId) : undefined,
      ),
    )
    .orderBy(desc(chainTransactions.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The newest transaction recorded for `purpose` on this chain that was not refused or
 * reverted (pending, submitted or confirmed): the attempt an idempotent write points to.
 */
export async function findLatestByPurpose(
  db: DbOrTx,
  p: { chainId: number; purpose: string; excludeId?: string },
): Promise<ChainTransaction | null> {
  const [row] = await db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, p.chainId),
        eq(chainTransactions.purpose, p.purpose),
        inArray(chainTransactions.status, ["pending", "submitted", "confirmed"]),
        p.excludeId ? ne(chainTransactions.id, p.excludeId) : undefined,
      ),
    )
    .orderBy(desc(chainTransactions.createdAt))
    .limit(1);
  return row ?? null;
}
