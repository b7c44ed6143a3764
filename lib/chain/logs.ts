import { type Address, BaseError, type Hex, type Log } from "viem";
import type { Db } from "@/db/client";
import { readCursor, type StoredLog, storedLogs, storeLogRange } from "@/db/queries/chain-logs";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { chainUnavailable, isTransportError } from "@/lib/chain/sender";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

// Contract logs as a hosted RPC will serve them: eth_getLogs over bounded block ranges
// (LOG_RANGE_BLOCKS, halved whenever the provider refuses a range), by topic, retried when
// the provider answers 429 or drops the request (the transport retries first; a range is
// tried again a few times more here), from a cursor persisted in the database. What is
// final (the chain's confirmation depth below the head) is stored once in the log index
// (chain_logs); the blocks above it are read live every time, filtered by the indexed topic.

/** Attempts per range for transport failures (429, dropped, timeouts) after viem's own. */
const ATTEMPTS = 5;

type Filter = { address: Address; topics: Array<Hex | Hex[] | null> };

const toStored = (l: Log): StoredLog => ({
  address: l.address,
  blockNumber: l.blockNumber as bigint,
  blockHash: l.blockHash as string,
  logIndex: l.logIndex as number,
  txHash: l.transactionHash as string,
  topics: l.topics as string[],
  data: l.data,
});

async function getLogsOnce(filter: Filter, from: bigint, to: bigint): Promise<StoredLog[]> {
  const logs = (await publicClient().request({
    method: "eth_getLogs",
    params: [
      {
        address: filter.address,
        topics: filter.topics,
        fromBlock: `0x${from.toString(16)}`,
        toBlock: `0x${to.toString(16)}`,
      },
    ],
  })) as Array<Record<string, unknown>>;
  return logs.map((l) =>
    toStored({
      ...(l as unknown as Log),
      blockNumber: BigInt(l.blockNumber as string),
      logIndex: Number(BigInt(l.logIndex as string)),
    }),
  );
}

/**
 * Reads `filter`'s logs over [from, to] in ranges of at most `range` blocks, calling
 * `onRange` after each (in order). A range the provider refuses is halved (down to one
 * block) and that size is kept; a transport failure is retried with backoff. Throws
 * chain_unavailable when the provider keeps failing.
 */
export async function readLogRanges(
  filter: Filter,
  from: bigint,
  to: bigint,
  onRange: (logs: StoredLog[], last: bigint) => Promise<void>,
  range = BigInt(env().LOG_RANGE_BLOCKS),
): Promise<void> {
  let size = range;
  let start = from;
  let failures = 0;
  while (start <= to) {
    const end = start + size - 1n < to ? start + size - 1n : to;
    let logs: StoredLog[];
    try {
      logs = await getLogsOnce(filter, start, end);
    } catch (err) {
      if (isTransportError(err) || !(err instanceof BaseError)) {
        if (++failures >= ATTEMPTS) throw chainUnavailable(err);
        await new Promise((r) => setTimeout(r, 100 * 2 ** failures));
        continue;
      }
      // The provider answered, refusing this range (too many blocks or results): smaller.
      if (size === 1n) throw chainUnavailable(err);
      size = size / 2n;
      log.debug("log range refused; halving it", { size: size.toString(), err });
      continue;
    }
    failures = 0;
    await onRange(logs, end);
    start = end + 1n;
  }
}

/**
 * Brings the log index of `address` (logs with one of `topic0s`) up to the final block
 * (head − the chain's confirmation depth), from its cursor (`startBlock` the first time).
 * Returns the head it read against.
 */
export async function syncLogIndex(
  db: Db,
  p: { address: Address; topic0s: Hex[]; startBlock: bigint },
): Promise<{ head: bigint; indexedTo: bigint }> {
  const config = chainConfig();
  const name = `logs:${p.address.toLowerCase()}`;
  const cursor = (await readCursor(db, config.chainId, name)) ?? p.startBlock;
  let head: bigint;
  try {
    head = await publicClient().getBlockNumber({ cacheTime: 0 });
  } catch (err) {
    throw chainUnavailable(err);
  }
  const final = head - BigInt(config.confirmations);
  if (cursor <= final)
    await readLogRanges({ address: p.address, topics: [p.topic0s] }, cursor, final, (logs, last) =>
      storeLogRange(db, { chainId: config.chainId, name, logs, nextBlock: last + 1n }),
    );
  return { head, indexedTo: final };
}

/**
 * The logs of `address` whose first indexed argument is `topic1`, from `fromBlock`: the
 * index brought up to date, then the blocks above it read live by that topic.
 */
export async function logsByTopic(
  db: Db,
  p: { address: Address; topic0s: Hex[]; topic1: Hex; fromBlock: bigint; startBlock: bigint },
): Promise<StoredLog[]> {
  const { head, indexedTo } = await syncLogIndex(db, p);
  const stored = await storedLogs(db, {
    chainId: chainConfig().chainId,
    address: p.address,
    topic1: p.topic1,
    fromBlock: p.fromBlock,
  });
  const tail: StoredLog[] = [];
  const tailFrom = indexedTo + 1n > p.fromBlock ? indexedTo + 1n : p.fromBlock;
  if (tailFrom <= head)
    await readLogRanges(
      { address: p.address, topics: [p.topic0s, p.topic1] },
      tailFrom,
      head,
      async (logs) => {
        tail.push(...logs);
      },
    );
  return [...stored, ...tail];
}
