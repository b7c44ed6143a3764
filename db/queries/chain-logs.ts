import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { chainCursors, chainLogs } from "@/db/schema";

// The log index (lib/chain/logs.ts): contract logs read from the chain in bounded block
// ranges, and the cursor of each reader (the next block it has not read).

export type StoredLog = {
  address: string;
  blockNumber: bigint;
  blockHash: string;
  logIndex: number;
  txHash: string;
  topics: string[];
  data: string;
};

export async function readCursor(
  db: DbOrTx,
  chainId: number,
  name: string,
): Promise<bigint | null> {
  const [row] = await db
    .select({ nextBlock: chainCursors.nextBlock })
    .from(chainCursors)
    .where(and(eq(chainCursors.chainId, chainId), eq(chainCursors.name, name)));
  return row?.nextBlock ?? null;
}

/**
 * Stores the logs of one block range and moves the cursor past it, in one transaction: a
 * reader that dies between ranges starts again from the first range it did not finish. Two
 * readers over the same range store each log once, and the cursor only moves forward.
 */
export async function storeLogRange(
  db: Db,
  p: { chainId: number; name: string; logs: StoredLog[]; nextBlock: bigint },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (p.logs.length)
      await tx
        .insert(chainLogs)
        .values(
          p.logs.map((l) => ({
            chainId: p.chainId,
            address: l.address.toLowerCase(),
            blockNumber: l.blockNumber,
            blockHash: l.blockHash,
            logIndex: l.logIndex,
            txHash: l.txHash,
            topic0: l.topics[0] ?? "",
            topic1: l.topics[1]?.toLowerCase() ?? null,
            topics: l.topics,
            data: l.data,
          })),
        )
        .onConflictDoNothing();
    await tx
      .insert(chainCursors)
      .values({ chainId: p.chainId, name: p.name, nextBlock: p.nextBlock })
      .onConflictDoUpdate({
        target: [chainCursors.chainId, chainCursors.name],
        set: {
          nextBlock: sql`greatest(${chainCursors.nextBlock}, excluded.next_block)`,
          updatedAt: new Date(),
        },
      });
  });
}

/** The stored logs of `address` whose first indexed argument is `topic1`, from `fromBlock`. */
export async function storedLogs(
  db: DbOrTx,
  p: { chainId: number; address: string; topic1: string; fromBlock: bigint },
): Promise<StoredLog[]> {
  const rows = await db
    .select()
    .from(chainLogs)
    .where(
      and(
        eq(chainLogs.chainId, p.chainId),
        eq(chainLogs.address, p.address.toLowerCase()),
        eq(chainLogs.topic1, p.topic1.toLowerCase()),
        gte(chainLogs.blockNumber, p.fromBlock),
      ),
    )
    .orderBy(asc(chainLogs.blockNumber), asc(chainLogs.logIndex));
  return rows.map((r) => ({
    address: r.address,
    blockNumber: r.blockNumber,
    blockHash: r.blockHash,
    logIndex: r.logIndex,
    txHash: r.txHash,
    topics: r.topics,
    data: r.data,
  }));
}
