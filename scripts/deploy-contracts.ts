// npm run contracts:deploy -- --chain base-sepolia [--attestor 0x…] [--rpc-url URL] [--only NAME]
//
// Deploys the ReputationRegistry and the MilestoneEscrow (with its DepositForwarderFactory, each
// deal's deposit address) to a real chain. Real USDC is used
// there, so no token is deployed: the escrow is bound to the chain's USDC (USDC_ADDRESS
// overrides it) for good. The deployer is TREASURY_PRIVATE_KEY from the environment; it becomes
// the registry's owner, and the attestor (the only writer) is the treasury address unless
// --attestor names another. The escrow has no owner. Prints the environment lines to set and
// the explorer links.
//   --chain NAME       base-sepolia | sepolia | arc-testnet | base (local: use npm run dev)
//   --rpc-url URL      RPC endpoint (default: RPC_URL, else the chain's public endpoint)
//   --attestor ADDR    the registry's writer (default: the treasury address)
//   --only NAME        deploy only `registry` or only `escrow` (default: both)
//   --allow-mainnet    required to deploy on a mainnet (it costs real gas)
import { parseArgs } from "node:util";
import {
  type Abi,
  type Address,
  BaseError,
  formatEther,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  depositForwarderFactoryAbi,
  milestoneEscrowAbi,
  reputationRegistryAbi,
} from "@/contracts/artifacts";
import {
  depositForwarderFactoryBytecode,
  milestoneEscrowBytecode,
  reputationRegistryBytecode,
} from "@/contracts/artifacts/bytecode";
import {
  type ChainInfo,
  type ChainName,
  chainByName,
  chains,
  explorerAddressUrl,
  explorerTxUrl,
} from "@/lib/chain/chains";
import {
  type ChainPublicClient,
  type ChainWalletClient,
  makePublicClient,
  makeWalletClient,
} from "@/lib/chain/clients";
import { env } from "@/lib/env";

class UsageError extends Error {}

const { values: args } = parseArgs({
  options: {
    chain: { type: "string" },
    "rpc-url": { type: "string" },
    attestor: { type: "string" },
    only: { type: "string" },
    "allow-mainnet": { type: "boolean", default: false },
  },
});

function resolveChain(): ChainName {
  const name = args.chain ?? env().CHAIN;
  if (!(name in chains))
    throw new UsageError(`Unknown chain "${name}". Known: ${Object.keys(chains).join(", ")}.`);
  if (name === "local")
    throw new UsageError(
      "The local chain needs no deploy step: `npm run dev` starts anvil and deploys the contracts itself. Pass --chain base-sepolia (or sepolia, arc-testnet).",
    );
  return name as ChainName;
}

/** Deploys one contract, waits for its receipt and returns its checksummed address. */
async function deploy(
  known: ChainInfo,
  publicClient: ChainPublicClient,
  walletClient: ChainWalletClient,
  name: string,
  contract: { abi: Abi; bytecode: Hex; args: readonly unknown[] },
): Promise<Address> {
  console.error(`Deploying ${name}…`);
  const hash = await walletClient.deployContract(contract);
  console.error(`  tx             ${explorerTxUrl(known, hash) ?? hash}`);
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 180_000 });
  if (receipt.status !== "success" || !receipt.contractAddress)
    throw new Error(`the ${name} deployment reverted (tx ${hash})`);
  const address = getAddress(receipt.contractAddress);
  console.error(`  deployed at    ${explorerAddressUrl(known, address) ?? address}`);
  return address;
}

async function main() {
  const name = resolveChain();
  const known = chainByName(name);
  if (!known.testnet && !args["allow-mainnet"])
    throw new UsageError(`${known.chain.name} is a mainnet: add --allow-mainnet to deploy there.`);
  if (args.only !== undefined && args.only !== "registry" && args.only !== "escrow")
    throw new UsageError(`--only takes "registry" or "escrow", not "${args.only}".`);
  const wantRegistry = args.only !== "escrow";
  const wantEscrow = args.only !== "registry";
  const key = env().TREASURY_PRIVATE_KEY as Hex | undefined;
  if (!key)
    throw new UsageError(
      "Set TREASURY_PRIVATE_KEY (the deployer; it becomes the registry's owner).",
    );
  const deployer = privateKeyToAccount(key).address;
  if (args.attestor !== undefined && !isAddress(args.attestor, { strict: false }))
    throw new UsageError(`--attestor ${args.attestor} is not an address.`);
  const attestor: Address = args.attestor ? getAddress(args.attestor) : deployer;
  const usdcSetting = env().USDC_ADDRESS ?? known.usdc;
  if (wantEscrow && !usdcSetting)
    throw new UsageError(`${known.chain.name} has no known USDC: set USDC_ADDRESS.`);
  const usdc = usdcSetting ? getAddress(usdcSetting) : null;
  const rpcUrl = args["rpc-url"] ?? env().RPC_URL ?? known.defaultRpcUrl;

  const config = { chain: known.chain, rpcUrl, timeoutMs: 30_000 };
  const publicClient = makePublicClient(config);
  const walletClient = makeWalletClient(config, key);
  const rpcChainId = await publicClient.getChainId().catch((err: unknown) => {
    throw new UsageError(
      `Cannot reach the RPC at ${rpcUrl} (${err instanceof BaseError ? err.shortMessage : String(err)}).`,
    );
  });
  if (rpcChainId !== known.chain.id)
    throw new UsageError(
      `${rpcUrl} serves chain ${rpcChainId}, not ${known.chain.name} (${known.chain.id}).`,
    );
  const gas = await publicClient.getBalance({ address: deployer });
  if (gas === 0n)
    throw new UsageError(
      `The deployer ${deployer} has no gas money on ${known.chain.name}: fund it from a faucet first.`,
    );
  // The escrow is bound to its token forever: refuse an address with no contract behind it.
  if (wantEscrow && usdc) {
    const code = await publicClient.getCode({ address: usdc });
    if (!code || code === "0x")
      throw new UsageError(`There is no contract at USDC ${usdc} on ${known.chain.name}.`);
  }

  console.error(`Deploying on ${known.chain.name} (${known.chain.id})`);
  console.error(
    `  deployer       ${deployer} (${formatEther(gas)} ${known.chain.nativeCurrency.symbol})`,
  );
  if (wantRegistry) console.error(`  attestor       ${attestor}`);
  if (wantEscrow) console.error(`  USDC           ${usdc}`);

  let registry: Address | undefined;
  if (wantRegistry) {
    registry = await deploy(known, publicClient, walletClient, "ReputationRegistry", {
      abi: reputationRegistryAbi,
      bytecode: reputationRegistryBytecode,
      args: [attestor],
    });
    const onChainAttestor = await publicClient.readContract({
      address: registry,
      abi: reputationRegistryAbi,
      functionName: "attestor",
    });
    if (!isAddressEqual(onChainAttestor, attestor))
      throw new Error(`the registry reports attestor ${onChainAttestor}, expected ${attestor}`);
  }
  let escrow: Address | undefined;
  if (wantEscrow && usdc) {
    escrow = await deploy(known, publicClient, walletClient, "MilestoneEscrow", {
      abi: milestoneEscrowAbi,
      bytecode: milestoneEscrowBytecode,
      args: [usdc],
    });
    const onChainUsdc = await publicClient.readContract({
      address: escrow,
      abi: milestoneEscrowAbi,
      functionName: "usdc",
    });
    if (!isAddressEqual(onChainUsdc, usdc))
      throw new Error(`the escrow reports USDC ${onChainUsdc}, expected ${usdc}`);
  }
  let depositFactory: Address | undefined;
  if (escrow) {
    depositFactory = await deploy(known, publicClient, walletClient, "DepositForwarderFactory", {
      abi: depositForwarderFactoryAbi,
      bytecode: depositForwarderFactoryBytecode,
      args: [escrow],
    });
  }

  console.error("\nSet these in the app's environment:\n");
  // The env lines go to stdout alone, so `… >> .env` works.
  console.log(`CHAIN=${name}`);
  if (registry) console.log(`REPUTATION_REGISTRY_ADDRESS=${registry}`);
  if (escrow) console.log(`ESCROW_ADDRESS=${escrow}`);
  if (depositFactory) console.log(`DEPOSIT_FACTORY_ADDRESS=${depositFactory}`);
  if (args["rpc-url"]) console.log(`# RPC_URL=${rpcUrl}`);
  if (env().USDC_ADDRESS) console.log(`USDC_ADDRESS=${usdc}`);
  else {
    console.log(`# USDC on ${known.chain.name} is built in; set USDC_ADDRESS only to override it:`);
    console.log(`# USDC_ADDRESS=${known.usdc ?? ""}`);
  }
  if (registry && !isAddressEqual(attestor, deployer))
    console.log(
      `# The attestor is not the deployer: TREASURY_PRIVATE_KEY must be ${attestor}'s key.`,
    );
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`[contracts:deploy] ${err instanceof UsageError ? "" : "failed: "}${message}`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
