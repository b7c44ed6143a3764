import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type ChainTransaction, chainTransactions, type TxStatus } from "@/db/schema";

// Lookups on the sender's transaction log (lib/chain/sender.ts writes it).

const live: TxStatus[] = ["pending", "submitted", "confirmed"];

/**
 * The newest transaction recorded for `purpose` on this chain in one of `statuses`
 * (default: not refused or reverted — the attempt an idempotent write points to), other
 * than `excludeId`. With `["pending", "submitted"]`: an unfinished attempt to resume.
 */
export async function findLatestByPurpose(
  db: DbOrTx,
  p: { chainId: number; purpose: string; excludeId?: string; statuses?: TxStatus[] },
): Promise<ChainTransaction | null> {
  const [row] = await db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, p.chainId),
        eq(chainTransactions.purpose, p.purpose),
        inArray(chainTransactions.status, p.statuses ?? live),
        p.excludeId ? ne(chainTransactions.id, p.excludeId) : undefined,
      ),
    )
    .orderBy(desc(chainTransactions.createdAt))
    .limit(1);
  return row ?? null;
}
