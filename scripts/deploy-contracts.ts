// npm run contracts:deploy -- --chain base-sepolia [--attestor 0x…] [--rpc-url URL]
//
// Deploys the ReputationRegistry to a real chain (real USDC is used there, so no token is
// deployed). The deployer is TREASURY_PRIVATE_KEY from the environment; it becomes the
// registry's owner, and the attestor (the only writer) is the treasury address unless
// --attestor names another. Prints the environment lines to set and the explorer links.
//   --chain NAME       base-sepolia | sepolia | arc-testnet | base (local: use npm run dev)
//   --rpc-url URL      RPC endpoint (default: RPC_URL, else the chain's public endpoint)
//   --attestor ADDR    the registry's writer (default: the treasury address)
//   --allow-mainnet    required to deploy on a mainnet (it costs real gas)
import { parseArgs } from "node:util";
import {
  type Address,
  BaseError,
  formatEther,
  getAddress,
  type Hex,
  isAddress,
  isAddressEqual,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { reputationRegistryAbi, reputationRegistryBytecode } from "@/contracts/artifacts";
import {
  type ChainName,
  chainByName,
  chains,
  explorerAddressUrl,
  explorerTxUrl,
} from "@/lib/chain/chains";
import { makePublicClient, makeWalletClient } from "@/lib/chain/clients";
import { env } from "@/lib/env";

class UsageError extends Error {}

const { values: args } = parseArgs({
  options: {
    chain: { type: "string" },
    "rpc-url": { type: "string" },
    attestor: { type: "string" },
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

async function main() {
  const name = resolveChain();
  const known = chainByName(name);
  if (!known.testnet && !args["allow-mainnet"])
    throw new UsageError(`${known.chain.name} is a mainnet: add --allow-mainnet to deploy there.`);
  const key = env().TREASURY_PRIVATE_KEY as Hex | undefined;
  if (!key)
    throw new UsageError(
      "Set TREASURY_PRIVATE_KEY (the deployer; it becomes the registry's owner).",
    );
  const deployer = privateKeyToAccount(key).address;
  if (args.attestor !== undefined && !isAddress(args.attestor, { strict: false }))
    throw new UsageError(`--attestor ${args.attestor} is not an address.`);
  const attestor: Address = args.attestor ? getAddress(args.attestor) : deployer;
  const rpcUrl = args["rpc-url"] ?? env().RPC_URL ?? known.defaultRpcUrl;

  const config = { chain: known.chain, rpcUrl, timeoutMs: 30_000 };
  const publicClient = makePublicClient(config);
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

  console.error(`Deploying ReputationRegistry on ${known.chain.name} (${known.chain.id})`);
  console.error(
    `  deployer/owner ${deployer} (${formatEther(gas)} ${known.chain.nativeCurrency.symbol})`,
  );
  console.error(`  attestor       ${attestor}`);
  const hash = await makeWalletClient(config, key).deployContract({
    abi: reputationRegistryAbi,
    bytecode: reputationRegistryBytecode,
    args: [attestor],
  });
  console.error(`  tx             ${explorerTxUrl(known, hash) ?? hash}`);
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 180_000 });
  if (receipt.status !== "success" || !receipt.contractAddress)
    throw new Error(`the deployment reverted (tx ${hash})`);
  const registry = getAddress(receipt.contractAddress);
  const onChainAttestor = await publicClient.readContract({
    address: registry,
    abi: reputationRegistryAbi,
    functionName: "attestor",
  });
  if (!isAddressEqual(onChainAttestor, attestor))
    throw new Error(`the registry reports attestor ${onChainAttestor}, expected ${attestor}`);

  console.error(`\nDeployed at ${explorerAddressUrl(known, registry) ?? registry}`);
  console.error("Set these in the app's environment:\n");
  // The env lines go to stdout alone, so `… >> .env` works.
  console.log(`CHAIN=${name}`);
  console.log(`REPUTATION_REGISTRY_ADDRESS=${registry}`);
  if (args["rpc-url"]) console.log(`# RPC_URL=${rpcUrl}`);
  console.log(`# USDC on ${known.chain.name} is built in; set USDC_ADDRESS only to override it:`);
  console.log(`# USDC_ADDRESS=${known.usdc ?? ""}`);
  if (!isAddressEqual(attestor, deployer))
    console.log(
      `# The attestor is not the deployer: TREASURY_PRIVATE_KEY must be ${attestor}'s key.`,
    );
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`[contracts:deploy] ${err instanceof UsageError ? "" : "failed: "}${message}`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
