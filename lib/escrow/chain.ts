import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  zeroAddress,
} from "viem";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { publicClient, requireEscrow } from "@/lib/chain/config";
import { chainUnavailable, isTransportError } from "@/lib/chain/sender";
import { dealKey, type MilestoneState } from "@/lib/escrow/onchain";

// Reads of the escrow contract. The chain is the truth for escrowed money: the server
// never trusts a hash or an amount a caller sends, it reads the contract's state.

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

export async function readEscrowDeal(dealId: string): Promise<EscrowDeal> {
  const escrow = requireEscrow();
  const r = await read(() =>
    publicClient().readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "getDeal",
      args: [dealKey(dealId)],
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

export async function readEscrowMilestone(dealId: string, index: number): Promise<EscrowMilestone> {
  const [amount, state] = await read(() =>
    publicClient().readContract({
      address: requireEscrow(),
      abi: milestoneEscrowAbi,
      functionName: "getMilestone",
      args: [dealKey(dealId), BigInt(index)],
    }),
  );
  return { amount, state: Number(state) as MilestoneState };
}

export async function readEscrowMilestones(
  dealId: string,
  count: number,
): Promise<EscrowMilestone[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => readEscrowMilestone(dealId, i)));
}

/** The escrow's events about one deal (from `fromBlock`), decoded. */
export async function escrowEvents(dealId: string, fromBlock: bigint | null) {
  const escrow = requireEscrow();
  const logs = await read(() =>
    publicClient().getLogs({
      address: escrow,
      fromBlock: fromBlock ?? 0n,
      toBlock: "latest",
    }),
  );
  const key = dealKey(dealId).toLowerCase();
  return parseEventLogs({ abi: milestoneEscrowAbi, logs }).filter(
    (l) => (l.args as { dealId?: Hex }).dealId?.toLowerCase() === key,
  );
}

/** The transaction that released milestone `index` of a deal, when one did. */
export async function findRelease(
  dealId: string,
  index: number,
  fromBlock: bigint | null,
): Promise<{ txHash: Hex; payout: bigint; refund: bigint; verdictHash: Hex } | null> {
  const events = await escrowEvents(dealId, fromBlock);
  for (const e of events) {
    if (e.eventName !== "Released") continue;
    const a = e.args as { index: bigint; payout: bigint; refund: bigint; verdictHash: Hex };
    if (a.index === BigInt(index))
      return {
        txHash: e.transactionHash,
        payout: a.payout,
        refund: a.refund,
        verdictHash: a.verdictHash,
      };
  }
  return null;
}

/** Calldata of the escrow's functions the service itself sends (as the evaluator, or for the brand). */
export const escrowCall = {
  assignCreator: (dealId: string, creator: Address) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "assignCreator",
      args: [dealKey(dealId), creator],
    }),
  release: (dealId: string, index: number, payout: bigint, verdictHash: Hex) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "release",
      args: [dealKey(dealId), BigInt(index), payout, verdictHash],
    }),
  releaseWithSig: (
    dealId: string,
    index: number,
    payout: bigint,
    verdictHash: Hex,
    deadline: bigint,
    signature: Hex,
  ) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "releaseWithSig",
      args: [dealKey(dealId), BigInt(index), payout, verdictHash, deadline, signature],
    }),
  refundExpired: (dealId: string, index: number) =>
    encodeFunctionData({
      abi: milestoneEscrowAbi,
      functionName: "refundExpired",
      args: [dealKey(dealId), BigInt(index)],
    }),
};

/** The chain's current time (the latest block's timestamp), which the escrow's rules use. */
export async function chainNow(): Promise<bigint> {
  const block = await read(() => publicClient().getBlock({ blockTag: "latest" }));
  return block.timestamp;
}
