import {
  type AbiEvent,
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  type TransactionReceipt,
  toEventSelector,
  zeroAddress,
} from "viem";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { Deal } from "@/db/schema";
import { publicClient, requireEscrow } from "@/lib/chain/config";
import { logsByTopic } from "@/lib/chain/logs";
import { chainUnavailable, isTransportError } from "@/lib/chain/sender";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { dealKey, type MilestoneState } from "@/lib/escrow/onchain";

// Reads of the escrow contract. The chain is the truth for escrowed money: the server
// never trusts a hash or an amount a caller sends, it reads the contract's state.
// The escrow keys deals by their funder (dealKey(funder, dealRef)): every read and call here
// takes that key, so only the deal under the brand's own wallet is ever this deal's escrow.

/**
 * The escrow key of a funded deal: its ref under the wallet that funded it — the brand's, or
 * the deal's deposit forwarder when it was swept from its deposit address (lib/escrow/deposit.ts
 * then records the forwarder as the funding wallet).
 */
export function escrowKey(deal: Pick<Deal, "id" | "brandWallet">): Hex {
  if (!deal.brandWallet) throw new Error(`deal ${deal.id} has no funding wallet`);
  return dealKey(getAddress(deal.brandWallet), deal.id);
}

export type EscrowDeal = {
  exists: boolean;
  brand: Address;
  evaluator: Address;
  creator: Address | null;
  deadline: bigint;
  cancelled: boolean;
  funded: bigint;
  released: bigint;
  refunded: bigint;
  locked: bigint;
  milestoneCount: number;
};

export type EscrowMilestone = { amount: bigint; state: MilestoneState };

async function read<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    throw err;
  }
}

/**
 * The chain's latest block number, never a cached one: several reads pinned to it (`at`) see
 * one state of the escrow, not a cancel that landed between them.
 */
export async function latestBlock(): Promise<bigint> {
  return read(() => publicClient().getBlockNumber({ cacheTime: 0 }));
}

/**
 * The escrow's deal under `key` (all zero, `exists: false`, when there is none), as of block
 * `at` (default: the latest).
 */
export async function readEscrowDeal(key: Hex, at?: bigint): Promise<EscrowDeal> {
  const escrow = requireEscrow();
  const r = await read(() =>
    publicClient().readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "getDeal",
      args: [key],
      blockNumber: at,
    }),
  );
  const [brand, evaluator, creator, deadline, cancelled, funded, released, refunded, locked, n] = r;
  return {
    exists: !isAddressEqual(brand, zeroAddress),
    brand: getAddress(brand),
    evaluator: getAddress(evaluator),
    creator: isAddressEqual(creator, zeroAddress) ? null : getAddress(creator),
    deadline: BigInt(deadline),
    cancelled,
    funded,
    released,
    refunded,
    locked,
    milestoneCount: Number(n),
  };
}

/** Where the deal under `key` sends unreleased money (null for an unknown deal). */
export async function readRefundRecipient(key: Hex, at?: bigint): Promise<Address | null> {
  const to = await read(() =>
    publicClient().readContract({
      address: requireEscrow(),
      abi: milestoneEscrowAbi,
      functionName: "refundRecipient",
      args: [key],
      blockNumber: at,
    }),
  );
  return isAddressEqual(to, zeroAddress) ? null : getAddress(to);
}

export async function readEscrowMilestone(
  key: Hex,
  index: number,
  at?: bigint,
): Promise<EscrowMilestone> {
  const [amount, state] = await read(() =>
    publicClient().readContract({
      address: requireEscrow(),
      abi: milestoneEscrowAbi,
      functionName: "getMilestone",
      args: [key, BigInt(index)],
      blockNumber: at,
    }),
  );
  return { amount, state: Number(state) as MilestoneState };
}

export async function readEscrowMilestones(
  key: Hex,
  count: number,
  at?: bigint,
): Promise<EscrowMilestone[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => readEscrowMilestone(key, i, at)));
}

/** The selectors of every event the escrow emits (topic0 of its logs). */
const escrowTopics = milestoneEscrowAbi
  .filter((item) => item.type === "event")
  .map((item) => toEventSelector(item as AbiEvent));

/**
 * The escrow's events about the deal under `key` (from `fromBlock`), decoded: from the log
 * index (lib/chain/logs.ts: bounded block ranges from a cursor in the database, by topic;
 * every event's first indexed argument is the deal key), the blocks above it read live.
 */
export async function escrowEvents(key: Hex, fromBlock: bigint | null) {
  const escrow = requireEscrow();
  const logs = await logsByTopic(await getDb(), {
    address: escrow,
    topic0s: escrowTopics,
    topic1: key,
    fromBlock: fromBlock ?? 0n,
    startBlock: BigInt(env().ESCROW_START_BLOCK),
  });
  return parseEventLogs({
    abi: milestoneEscrowAbi,
    logs: logs.map((l) => ({
      address: getAddress(l.address),
      blockHash: l.blockHash as Hex,
      blockNumber: l.blockNumber,
      data: l.data as Hex,
      logIndex: l.logIndex,
      transactionHash: l.txHash as Hex,
      transactionIndex: 0,
      removed: false,
      topics: l.topics as [Hex, ...Hex[]],
    })),
  });
}

/** The transaction that released milestone `index` of the deal under `key`, when one did. */
export async function findRelease(
  key: Hex,
  index: number,
  fromBlock: bigint | null,
): Promise<{
  txHash: Hex;
  logIndex: number;
  payout: bigint;
  refund: bigint;
  verdictHash: Hex;
} | null> {
  const events = await escrowEvents(key, fromBlock);
  for (const e of events) {
    if (e.eventName !== "Released") continue;
    const a = e.args as { index: bigint; payout: bigint; refund: bigint; verdictHash: Hex };
    if (a.index === BigInt(index))
      return {
        txHash: e.transactionHash,
        logIndex: e.logIndex,
        payout: a.payout,
        refund: a.refund,
        verdictHash: a.verdictHash,
      };
  }
  return null;
}

/**
 * What a release transaction's receipt says about milestone `index` of the deal under `key`:
 * released (the log index of its Released event), skipped by a batch (the escrow's refusal,
 * by name), or nothing (the milestone was not in it).
 */
export function releaseInReceipt(
  receipt: Pick<TransactionReceipt, "logs">,
  key: Hex,
  index: number,
): { logIndex: number } | { skipped: string } | null {
  return releasesInReceipt(receipt).get(releaseId(key, index)) ?? null;
}

/** How releasesInReceipt names a milestone: its deal's escrow key and its index. */
export const releaseId = (key: Hex, index: number | bigint) => `${key.toLowerCase()}:${index}`;

/**
 * Every milestone a receipt released or skipped (releaseInReceipt for all of them, the logs
 * parsed once: a batch's finish looks up each of its items), by releaseId.
 */
export function releasesInReceipt(
  receipt: Pick<TransactionReceipt, "logs">,
): Map<string, { logIndex: number } | { skipped: string }> {
  const escrow = requireEscrow();
  const events = parseEventLogs({
    abi: milestoneEscrowAbi,
    logs: receipt.logs.filter((l) => isAddressEqual(l.address, escrow)),
    eventName: ["Released", "ReleaseSkipped"],
  });
  const found = new Map<string, { logIndex: number } | { skipped: string }>();
  for (const e of events) {
    const id = releaseId(e.args.dealKey, e.args.index);
    if (found.has(id)) continue;
    if (e.eventName === "Released") {
      found.set(id, { logIndex: e.logIndex });
      continue;
    }
    const reason = e.args.reason as Hex;
    try {
      found.set(id, {
        skipped: decodeErrorResult({ abi: milestoneEscrowAbi, data: reason }).errorName,
      });
    } catch {
      found.set(id, { skipped: reason.slice(0, 10) });
    }
  }
  return found;
}

/**
 * Calldata of the escrow's functions the service itself sends (as the evaluator, or for the
 * brand), each for the deal under `key` (escrowKey).
 */
export const escrowCall = {
  assignCreator: (key: Hex, creator: Address) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "assignCreator",
      args: [key, creator],
    }),
  release: (key: Hex, index: number, payout: bigint, verdictHash: Hex) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "release",
      args: [key, BigInt(index), payout, verdictHash],
    }),
  /** Several releases in one transaction; an item the escrow refuses is skipped, not fatal. */
  releaseBatch: (
    items: ReadonlyArray<{ key: Hex; index: number; payout: bigint; verdictHash: Hex }>,
  ) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "releaseBatch",
      args: [
        items.map((i) => ({
          dealKey: i.key,
          index: BigInt(i.index),
          payout: i.payout,
          verdictHash: i.verdictHash,
        })),
      ],
    }),
  releaseWithSig: (
    key: Hex,
    index: number,
    payout: bigint,
    verdictHash: Hex,
    deadline: bigint,
    signature: Hex,
  ) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "releaseWithSig",
      args: [key, BigInt(index), payout, verdictHash, deadline, signature],
    }),
  refundExpired: (key: Hex, index: number) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "refundExpired",
      args: [key, BigInt(index)],
    }),
};

/** The chain's current time (the latest block's timestamp), which the escrow's rules use. */
export async function chainNow(): Promise<bigint> {
  const block = await read(() => publicClient().getBlock({ blockTag: "latest" }));
  return block.timestamp;
}
