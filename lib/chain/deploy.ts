import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type Address,
  type Chain,
  createPublicClient,
  getAddress,
  type Hash,
  type Hex,
  http,
  isAddressEqual,
  keccak256,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import {
  depositForwarderAbi,
  depositForwarderFactoryAbi,
  milestoneEscrowAbi,
  mockUsdcAbi,
  reputationRegistryAbi,
} from "@/contracts/artifacts";
import {
  depositForwarderFactoryBytecode,
  milestoneEscrowBytecode,
  mockUsdcBytecode,
  reputationRegistryBytecode,
} from "@/contracts/artifacts/bytecode";
import { type ChainPublicClient, makePublicClient, makeWalletClient } from "@/lib/chain/clients";
import { type LocalDeployment, readDeploymentFile } from "@/lib/chain/deployment-file";

// Deploys the project's contracts to a local node (anvil) and keeps track of the deployment in a
// JSON file so that a node restarted from its saved state keeps using the same contracts.

export type { LocalDeployment };

/** 1,000,000 USDC (6 decimals): what the treasury receives on a fresh deploy by default. */
export const DEFAULT_TREASURY_FUNDING = 1_000_000n * 10n ** 6n;

/**
 * Hash of the compiled contracts recorded in the deployment file: after `contracts:build`
 * changes the bytecode, the old deployment is replaced instead of silently reused.
 */
export const ARTIFACTS_HASH: Hex = keccak256(
  `${mockUsdcBytecode}${reputationRegistryBytecode.slice(2)}${milestoneEscrowBytecode.slice(2)}${depositForwarderFactoryBytecode.slice(2)}`,
);

/** Clients for a local node whose chain id is read from the node itself. */
async function localClients(rpcUrl: string, key: Hex) {
  const probe = createPublicClient({ transport: http(rpcUrl, { timeout: 10_000 }) });
  const chain: Chain = { ...anvil, id: await probe.getChainId() };
  const config = { chain, rpcUrl };
  return {
    chain,
    publicClient: makePublicClient(config),
    walletClient: makeWalletClient(config, key),
  };
}

async function confirmed(
  client: ChainPublicClient,
  hash: Hash,
  what: string,
): Promise<TransactionReceipt> {
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 30_000 });
  if (receipt.status !== "success") throw new Error(`${what} reverted (tx ${hash})`);
  return receipt;
}

/**
 * Deploys MockUSDC (owner = deployer), ReputationRegistry(attestor), MilestoneEscrow(usdc) and
 * DepositForwarderFactory(escrow).
 */
export async function deployLocalContracts(params: {
  rpcUrl: string;
  deployerKey: Hex;
  attestor: Address;
}): Promise<LocalDeployment> {
  const { chain, publicClient, walletClient } = await localClients(
    params.rpcUrl,
    params.deployerKey,
  );

  // Sequential on purpose: each deploy waits for its receipt, so nonces never collide.
  const usdcReceipt = await confirmed(
    publicClient,
    await walletClient.deployContract({ abi: mockUsdcAbi, bytecode: mockUsdcBytecode }),
    "MockUSDC deployment",
  );
  const registryReceipt = await confirmed(
    publicClient,
    await walletClient.deployContract({
      abi: reputationRegistryAbi,
      bytecode: reputationRegistryBytecode,
      args: [params.attestor],
    }),
    "ReputationRegistry deployment",
  );
  if (!usdcReceipt.contractAddress || !registryReceipt.contractAddress) {
    throw new Error("deployment receipt has no contract address");
  }
  // Receipts carry lowercase addresses; checksum them so they compare equal to parsed ones.
  const usdc = getAddress(usdcReceipt.contractAddress);
  const escrowReceipt = await confirmed(
    publicClient,
    await walletClient.deployContract({
      abi: milestoneEscrowAbi,
      bytecode: milestoneEscrowBytecode,
      args: [usdc],
    }),
    "MilestoneEscrow deployment",
  );
  if (!escrowReceipt.contractAddress) throw new Error("deployment receipt has no contract address");
  const escrow = getAddress(escrowReceipt.contractAddress);
  const factoryReceipt = await confirmed(
    publicClient,
    await walletClient.deployContract({
      abi: depositForwarderFactoryAbi,
      bytecode: depositForwarderFactoryBytecode,
      args: [escrow],
    }),
    "DepositForwarderFactory deployment",
  );
  if (!factoryReceipt.contractAddress)
    throw new Error("deployment receipt has no contract address");
  return {
    chainId: chain.id,
    usdc,
    registry: getAddress(registryReceipt.contractAddress),
    escrow,
    depositFactory: getAddress(factoryReceipt.contractAddress),
    deployBlock: usdcReceipt.blockNumber,
  };
}

/** Mints MockUSDC (base units, 6 decimals) as its owner; resolves once mined. */
export async function mintUsdc(params: {
  rpcUrl: string;
  ownerKey: Hex;
  usdc: Address;
  to: Address;
  amount: bigint;
}): Promise<Hash> {
  const { publicClient, walletClient } = await localClients(params.rpcUrl, params.ownerKey);
  const hash = await walletClient.writeContract({
    address: params.usdc,
    abi: mockUsdcAbi,
    functionName: "mint",
    args: [params.to, params.amount],
  });
  await confirmed(publicClient, hash, "USDC mint");
  return hash;
}

export { readDeploymentFile };

function writeDeploymentFile(file: string, d: LocalDeployment): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const body = {
    chainId: d.chainId,
    usdc: d.usdc,
    registry: d.registry,
    escrow: d.escrow,
    depositFactory: d.depositFactory,
    deployBlock: Number(d.deployBlock),
    artifactsHash: ARTIFACTS_HASH,
  };
  // Write-then-rename so a crash never leaves a half-written file behind.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`);
  renameSync(tmp, file);
}

/** Deploys the contracts with `treasuryKey` as owner and attestor, and mints it USDC. */
export async function deployFundedContracts(p: {
  rpcUrl: string;
  treasuryKey: Hex;
  amount?: bigint;
}): Promise<LocalDeployment> {
  const treasury = privateKeyToAccount(p.treasuryKey).address;
  const d = await deployLocalContracts({
    rpcUrl: p.rpcUrl,
    deployerKey: p.treasuryKey,
    attestor: treasury,
  });
  await mintUsdc({
    rpcUrl: p.rpcUrl,
    ownerKey: p.treasuryKey,
    usdc: d.usdc,
    to: treasury,
    amount: p.amount ?? DEFAULT_TREASURY_FUNDING,
  });
  return d;
}

/**
 * Returns the local deployment recorded in `deploymentFile` when it is still live on the node
 * (same chain id, same compiled contracts, code at every address, same attestor); otherwise
 * deploys afresh, funds the treasury, and rewrites the file.
 */
export async function ensureLocalDeployment(params: {
  rpcUrl: string;
  deploymentFile: string;
  deployerKey: Hex;
  attestor: Address;
  /** Minted on a fresh deploy. Default: DEFAULT_TREASURY_FUNDING to the deployer; null: none. */
  fundTreasury?: { address: Address; amount: bigint } | null;
}): Promise<LocalDeployment & { deployed: boolean }> {
  const existing = readDeploymentFile(params.deploymentFile);
  if (existing && (await isLive(params.rpcUrl, existing, params.attestor))) {
    const { artifactsHash: _ignored, ...deployment } = existing;
    return { ...deployment, deployed: false };
  }

  const deployment = await deployLocalContracts(params);
  const funding =
    params.fundTreasury === undefined
      ? {
          address: privateKeyToAccount(params.deployerKey).address,
          amount: DEFAULT_TREASURY_FUNDING,
        }
      : params.fundTreasury;
  if (funding && funding.amount > 0n) {
    await mintUsdc({
      rpcUrl: params.rpcUrl,
      ownerKey: params.deployerKey,
      usdc: deployment.usdc,
      to: funding.address,
      amount: funding.amount,
    });
  }
  writeDeploymentFile(params.deploymentFile, deployment);
  return { ...deployment, deployed: true };
}

async function isLive(
  rpcUrl: string,
  d: LocalDeployment & { artifactsHash?: string },
  attestor: Address,
): Promise<boolean> {
  if (d.artifactsHash !== ARTIFACTS_HASH) return false;
  const client = makePublicClient({ chain: { ...anvil, id: d.chainId }, rpcUrl });
  if ((await client.getChainId()) !== d.chainId) return false;
  const codes = await Promise.all(
    [d.usdc, d.registry, d.escrow, d.depositFactory].map((address) => client.getCode({ address })),
  );
  if (codes.some((code) => !code || code === "0x")) return false;
  const [current, escrowToken, factoryImplementation] = await Promise.all([
    client.readContract({
      address: d.registry,
      abi: reputationRegistryAbi,
      functionName: "attestor",
    }),
    client.readContract({ address: d.escrow, abi: milestoneEscrowAbi, functionName: "usdc" }),
    client.readContract({
      address: d.depositFactory,
      abi: depositForwarderFactoryAbi,
      functionName: "implementation",
    }),
  ]);
  const forwarderEscrow = await client.readContract({
    address: factoryImplementation,
    abi: depositForwarderAbi,
    functionName: "escrow",
  });
  return (
    isAddressEqual(current, attestor) &&
    isAddressEqual(escrowToken, d.usdc) &&
    isAddressEqual(forwarderEscrow, d.escrow)
  );
}
