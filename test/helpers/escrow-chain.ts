import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  http,
  createPublicClient as viemPublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvil as anvilChain } from "viem/chains";
import { milestoneEscrowAbi, mockUsdcAbi } from "@/contracts/artifacts";
import { type AnvilInstance, devAccountKey, startAnvil } from "@/lib/chain/anvil";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  makePublicClient,
  makeWalletClient,
} from "@/lib/chain/clients";
import { deployLocalContracts } from "@/lib/chain/deploy";

// A throwaway anvil with MockUSDC + MilestoneEscrow for the escrow contract tests
// (test/contracts/escrow*.test.ts). Its own node,
// not the suite's shared one: these tests move the chain's clock by weeks, which would break
// time-bound signatures of test files running in parallel on the shared node.

export interface EscrowChain {
  node: AnvilInstance;
  pub: ChainPublicClient;
  /** JSON-RPC batching client: concurrent reads go out in one HTTP request. */
  batch: ChainPublicClient;
  deployer: ChainWalletClient;
  usdc: Address;
  escrow: Address;
  /** DepositForwarderFactory bound to `escrow`. */
  depositFactory: Address;
  chainId: number;
  rpc: (method: string, params?: unknown[]) => Promise<unknown>;
  /** A fresh account with 100 ETH for gas (and `usdc` base units minted to it, if given). */
  actor: (usdc?: bigint, key?: Hex) => Promise<ChainWalletClient>;
  balanceOf: (who: Address) => Promise<bigint>;
  stop: () => Promise<void>;
}

export async function startEscrowChain(
  opts: {
    /** Timestamp of the first block mined (deployments included). */
    genesisTime?: bigint;
    /** Mine every block exactly this many seconds after the previous one (not wall-clock). */
    blockInterval?: number;
  } = {},
): Promise<EscrowChain> {
  const node = await startAnvil();
  const config = { chain: anvilChain, rpcUrl: node.rpcUrl };
  const pub = makePublicClient(config);
  const batch = viemPublicClient({
    chain: anvilChain,
    transport: http(node.rpcUrl, { batch: { batchSize: 500 }, timeout: 30_000 }),
  }) as ChainPublicClient;
  const rpc = (method: string, params: unknown[] = []) =>
    pub.request({ method: method as never, params: params as never }) as Promise<unknown>;
  if (opts.genesisTime !== undefined)
    await rpc("evm_setNextBlockTimestamp", [Number(opts.genesisTime)]);
  if (opts.blockInterval !== undefined)
    await rpc("anvil_setBlockTimestampInterval", [opts.blockInterval]);
  const deployer = makeWalletClient(config, devAccountKey(0));
  const { usdc, escrow, depositFactory } = await deployLocalContracts({
    rpcUrl: node.rpcUrl,
    deployerKey: devAccountKey(0),
    attestor: deployer.account.address,
  });

  const actor = async (amount = 0n, key: Hex = generatePrivateKey()) => {
    const address = privateKeyToAccount(key).address;
    await rpc("anvil_setBalance", [address, `0x${(100n * 10n ** 18n).toString(16)}`]);
    if (amount > 0n) {
      const hash = await deployer.writeContract({
        address: usdc,
        abi: mockUsdcAbi,
        functionName: "mint",
        args: [address, amount],
      });
      await pub.waitForTransactionReceipt({ hash });
    }
    return makeWalletClient(config, key);
  };
  const balanceOf = (who: Address) =>
    batch.readContract({ address: usdc, abi: mockUsdcAbi, functionName: "balanceOf", args: [who] });

  return {
    node,
    pub,
    batch,
    deployer,
    usdc,
    escrow,
    depositFactory,
    chainId: anvilChain.id,
    rpc,
    actor,
    balanceOf,
    stop: () => node.stop(),
  };
}

/** Approves the escrow to pull any amount of `who`'s USDC. */
export async function approveEscrow(chain: EscrowChain, who: ChainWalletClient): Promise<void> {
  const hash = await who.writeContract({
    address: chain.usdc,
    abi: mockUsdcAbi,
    functionName: "approve",
    args: [chain.escrow, 2n ** 256n - 1n],
  });
  await chain.pub.waitForTransactionReceipt({ hash });
}

/**
 * The revert reason of a failed contract call: the custom error's name, the require string, or
 * (for an error the ABI does not know, e.g. the token's) its 4-byte selector.
 */
export async function revertReason(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    const reverted =
      err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      return reverted.reason ?? reverted.data?.errorName ?? reverted.raw?.slice(0, 10);
    }
    throw err;
  }
  throw new Error("expected the call to revert");
}

export type DealView = {
  brand: Address;
  evaluator: Address;
  creator: Address;
  deadline: bigint;
  cancelled: boolean;
  funded: bigint;
  released: bigint;
  refunded: bigint;
  locked: bigint;
  milestoneCount: bigint;
};

/** getDeal as an object. */
export async function readDeal(
  client: ChainPublicClient,
  escrow: Address,
  key: Hex,
): Promise<DealView> {
  const [
    brand,
    evaluator,
    creator,
    deadline,
    cancelled,
    funded,
    released,
    refunded,
    locked,
    milestoneCount,
  ] = await client.readContract({
    address: escrow,
    abi: milestoneEscrowAbi,
    functionName: "getDeal",
    args: [key],
  });
  return {
    brand,
    evaluator,
    creator,
    deadline,
    cancelled,
    funded,
    released,
    refunded,
    locked,
    milestoneCount,
  };
}
