import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hash,
  isAddressEqual,
  type Log,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { mockUsdcAbi, reputationRegistryAbi } from "@/contracts/artifacts";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { milestoneIdFromRef, type Reputation, readReputation } from "@/lib/chain/reputation";
import { chainUnavailable, isTransportError } from "@/lib/chain/sender";

// What the local block explorer shows: a transaction (status, parties, gas, decoded USDC
// and reputation events) and an address (USDC balance, reputation, recent transfers),
// read from the node with the project's ABIs. Server-only.

export type TxStatusView = "success" | "reverted" | "pending" | "not_found";

export type DecodedEvent =
  | { kind: "transfer"; from: Address; to: Address; units: bigint }
  | {
      kind: "reputation";
      wallet: Address;
      milestoneRef: `0x${string}`;
      milestoneId: string | null;
      scoreBps: number;
      units: bigint;
      count: bigint;
      meanScoreBps: number;
    }
  | { kind: "other"; contract: string; name: string };

export type TxView = {
  hash: Hash;
  chainId: number;
  status: TxStatusView;
  blockNumber: bigint | null;
  timestamp: Date | null;
  from: Address | null;
  /** "Treasury" when the service sent it. */
  fromLabel: string | null;
  to: Address | null;
  /** "USDC", "ReputationRegistry", or null for another contract or a plain account. */
  toLabel: string | null;
  /** The called function of a known contract, e.g. "transfer". */
  method: string | null;
  nonce: number | null;
  gasUsed: bigint | null;
  feeWei: bigint | null;
  events: DecodedEvent[];
};

function labelOf(address: Address | null | undefined): string | null {
  if (!address) return null;
  const c = chainConfig();
  if (c.usdc && isAddressEqual(address, c.usdc)) return "USDC";
  if (c.registry && isAddressEqual(address, c.registry)) return "ReputationRegistry";
  if (c.treasuryAddress && isAddressEqual(address, c.treasuryAddress)) return "Treasury";
  return null;
}

function abiFor(address: Address | null | undefined) {
  const label = labelOf(address);
  return label === "USDC"
    ? mockUsdcAbi
    : label === "ReputationRegistry"
      ? reputationRegistryAbi
      : null;
}

/** Decodes the logs our two contracts emitted; others are listed by contract only. */
export function decodeEvents(logs: Log[]): DecodedEvent[] {
  const out: DecodedEvent[] = [];
  for (const log of logs) {
    const abi = abiFor(log.address);
    const [event] = abi ? parseEventLogs({ abi, logs: [log] }) : [];
    if (!event) {
      out.push({ kind: "other", contract: getAddress(log.address), name: "unknown event" });
    } else if (event.eventName === "Transfer") {
      const { from, to, value } = event.args as { from: Address; to: Address; value: bigint };
      out.push({ kind: "transfer", from, to, units: value });
    } else if (event.eventName === "SettlementRecorded") {
      const a = event.args as {
        wallet: Address;
        milestoneRef: `0x${string}`;
        scoreBps: number;
        amount: bigint;
        count: bigint;
        meanScoreBps: number;
      };
      out.push({
        kind: "reputation",
        wallet: a.wallet,
        milestoneRef: a.milestoneRef,
        milestoneId: milestoneIdFromRef(a.milestoneRef),
        scoreBps: a.scoreBps,
        units: a.amount,
        count: a.count,
        meanScoreBps: a.meanScoreBps,
      });
    } else {
      out.push({
        kind: "other",
        contract: labelOf(log.address) ?? log.address,
        name: event.eventName,
      });
    }
  }
  return out;
}

const chainDown = (err: unknown) => (isTransportError(err) ? chainUnavailable(err) : err);

export async function inspectTransaction(hash: Hash): Promise<TxView> {
  const client = publicClient();
  const view: TxView = {
    hash,
    chainId: chainConfig().chainId,
    status: "not_found",
    blockNumber: null,
    timestamp: null,
    from: null,
    fromLabel: null,
    to: null,
    toLabel: null,
    method: null,
    nonce: null,
    gasUsed: null,
    feeWei: null,
    events: [],
  };
  try {
    const tx = await client.getTransaction({ hash }).catch((err: unknown) => {
      if (err instanceof TransactionNotFoundError) return null;
      throw err;
    });
    if (!tx) return view;
    view.status = "pending";
    view.from = getAddress(tx.from);
    view.fromLabel = labelOf(view.from);
    view.to = tx.to ? getAddress(tx.to) : null;
    view.toLabel = labelOf(view.to);
    view.nonce = tx.nonce;
    const abi = abiFor(view.to);
    if (abi) {
      try {
        view.method = decodeFunctionData({ abi, data: tx.input }).functionName;
      } catch {
        view.method = null;
      }
    }
    const receipt = await client.getTransactionReceipt({ hash }).catch((err: unknown) => {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw err;
    });
    if (!receipt) return view;
    view.status = receipt.status === "success" ? "success" : "reverted";
    view.blockNumber = receipt.blockNumber;
    view.gasUsed = receipt.gasUsed;
    view.feeWei = receipt.gasUsed * receipt.effectiveGasPrice;
    view.events = decodeEvents(receipt.logs);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    view.timestamp = new Date(Number(block.timestamp) * 1000);
    return view;
  } catch (err) {
    throw chainDown(err);
  }
}

export type TransferRow = {
  hash: Hash;
  blockNumber: bigint;
  direction: "in" | "out";
  counterparty: Address;
  counterpartyLabel: string | null;
  units: bigint;
};

export type AddressView = {
  address: Address;
  chainId: number;
  label: string | null;
  isContract: boolean;
  usdcBalance: bigint | null;
  reputation: Reputation | null;
  transfers: TransferRow[];
  /** The first block scanned for transfers. */
  scannedFrom: bigint;
};

/** How far back the address page looks for USDC transfers. */
export const TRANSFER_SCAN_BLOCKS = 5_000n;

export async function inspectAddress(address: Address, limit = 50): Promise<AddressView> {
  const config = chainConfig();
  const client = publicClient();
  const who = getAddress(address);
  try {
    const latest = await client.getBlockNumber();
    const fromBlock = latest > TRANSFER_SCAN_BLOCKS ? latest - TRANSFER_SCAN_BLOCKS : 0n;
    const usdc = config.usdc;
    const transferEvent = mockUsdcAbi.find(
      (item) => item.type === "event" && item.name === "Transfer",
    );
    const [code, usdcBalance, reputation, outgoing, incoming] = await Promise.all([
      client.getCode({ address: who }),
      usdc
        ? client.readContract({
            address: usdc,
            abi: mockUsdcAbi,
            functionName: "balanceOf",
            args: [who],
          })
        : null,
      config.registry ? readReputation(who).catch(() => null) : null,
      usdc && transferEvent
        ? client.getLogs({ address: usdc, event: transferEvent, args: { from: who }, fromBlock })
        : [],
      usdc && transferEvent
        ? client.getLogs({ address: usdc, event: transferEvent, args: { to: who }, fromBlock })
        : [],
    ]);
    const rows = new Map<string, TransferRow>();
    for (const [logs, direction] of [
      [outgoing, "out"],
      [incoming, "in"],
    ] as const) {
      for (const log of logs) {
        const { from, to, value } = log.args as { from: Address; to: Address; value: bigint };
        const counterparty = getAddress(direction === "out" ? to : from);
        rows.set(`${log.transactionHash}:${log.logIndex}:${direction}`, {
          hash: log.transactionHash as Hash,
          blockNumber: log.blockNumber as bigint,
          direction,
          counterparty,
          counterpartyLabel: labelOf(counterparty),
          units: value,
        });
      }
    }
    const transfers = [...rows.values()]
      .sort((a, b) =>
        a.blockNumber === b.blockNumber ? 0 : a.blockNumber > b.blockNumber ? -1 : 1,
      )
      .slice(0, limit);
    return {
      address: who,
      chainId: config.chainId,
      label: labelOf(who),
      isContract: Boolean(code && code !== "0x"),
      usdcBalance,
      reputation,
      transfers,
      scannedFrom: fromBlock,
    };
  } catch (err) {
    throw chainDown(err);
  }
}
