import path from "node:path";
import { type Address, getAddress, type Hex, parseGwei } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainInfo, chainByName } from "@/lib/chain/chains";
import { type ChainPublicClient, makePublicClient } from "@/lib/chain/clients";
import { readDeploymentFile } from "@/lib/chain/deployment-file";
import { devAccountKey } from "@/lib/chain/dev-accounts";
import { dataDir, type Env, env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The chain this deployment talks to, resolved once from configuration. On the local
// chain, contract addresses come from the deployment the dev script (or test setup)
// wrote under DATA_DIR unless they are given explicitly.

export type ChainConfig = {
  known: ChainInfo;
  chainId: number;
  rpcUrl: string;
  /** RPC_URL first, then RPC_FALLBACK_URLS: the read client fails over along this list. */
  rpcUrls: string[];
  /** Blocks on top of a receipt's before it is final (0: final once mined). */
  confirmations: number;
  /** The fee ceiling of a replacement (wei per gas). */
  maxFeePerGas: bigint;
  usdc: Address | null;
  registry: Address | null;
  escrow: Address | null;
  /** DepositForwarderFactory (each deal's deposit address, lib/escrow/deposit.ts). */
  depositFactory: Address | null;
  treasuryKey: Hex | null;
  treasuryAddress: Address | null;
  sponsorKey: Hex | null;
};

export function localDeploymentFile(dir: string = dataDir()): string {
  return path.join(dir, "deployments", "local.json");
}

export function resolveChainConfig(e: Env = env()): ChainConfig {
  const known = chainByName(e.CHAIN);
  const isLocal = e.CHAIN === "local";
  const deployment = isLocal ? readDeploymentFile(localDeploymentFile(dataDir(e))) : null;
  const usdc = e.USDC_ADDRESS ?? known.usdc ?? deployment?.usdc ?? null;
  const registry = e.REPUTATION_REGISTRY_ADDRESS ?? deployment?.registry ?? null;
  const escrow = e.ESCROW_ADDRESS ?? deployment?.escrow ?? null;
  const depositFactory = e.DEPOSIT_FACTORY_ADDRESS ?? deployment?.depositFactory ?? null;
  const treasuryKey =
    (e.TREASURY_PRIVATE_KEY as Hex | undefined) ?? (isLocal ? devAccountKey(0) : null);
  const sponsorKey =
    (e.RELAY_SPONSOR_PRIVATE_KEY as Hex | undefined) ?? (isLocal ? devAccountKey(1) : null);
  return {
    known,
    chainId: known.chain.id,
    rpcUrl: e.RPC_URL ?? known.defaultRpcUrl,
    rpcUrls: [
      e.RPC_URL ?? known.defaultRpcUrl,
      ...(e.RPC_FALLBACK_URLS ?? "")
        .split(",")
        .map((u) => u.trim())
        .filter(Boolean),
    ],
    confirmations: e.CHAIN_CONFIRMATIONS ?? known.confirmations,
    maxFeePerGas: parseGwei(String(e.TX_MAX_FEE_GWEI ?? known.maxFeeGwei)),
    usdc: usdc ? getAddress(usdc) : null,
    registry: registry ? getAddress(registry) : null,
    escrow: escrow ? getAddress(escrow) : null,
    depositFactory: depositFactory ? getAddress(depositFactory) : null,
    treasuryKey,
    treasuryAddress: treasuryKey ? privateKeyToAccount(treasuryKey).address : null,
    sponsorKey,
  };
}

let cached: ChainConfig | undefined;
let client: ChainPublicClient | undefined;

/** The active chain configuration (cached for the process). */
export function chainConfig(): ChainConfig {
  cached ??= resolveChainConfig();
  return cached;
}

/** Tests that change the chain settings call this; it drops the cached read client too. */
export function resetChainConfigCache(): void {
  cached = undefined;
  client = undefined;
}

/** The USDC address, or a 503 telling the operator what is missing. */
export function requireUsdc(config: ChainConfig = chainConfig()): Address {
  if (!config.usdc)
    throw new AppError(
      "not_configured",
      config.known.name === "local"
        ? "The local chain has no USDC deployment yet: start the app with `npm run dev`."
        : "USDC_ADDRESS is not configured for this chain.",
    );
  return config.usdc;
}

/** The MilestoneEscrow address, or a 503 telling the operator what is missing. */
export function requireEscrow(config: ChainConfig = chainConfig()): Address {
  if (!config.escrow)
    throw new AppError(
      "not_configured",
      config.known.name === "local"
        ? "The local chain has no escrow deployment yet: start the app with `npm run dev`."
        : "ESCROW_ADDRESS is not configured for this chain (npm run contracts:deploy prints it).",
    );
  return config.escrow;
}

export function requireTreasury(config: ChainConfig = chainConfig()): Hex {
  if (!config.treasuryKey)
    throw new AppError("not_configured", "TREASURY_PRIVATE_KEY is not configured.");
  return config.treasuryKey;
}

/** A read client for the active chain (cached for the process). */
export function publicClient(): ChainPublicClient {
  if (!client) {
    const config = chainConfig();
    client = makePublicClient({
      chain: config.known.chain,
      rpcUrl: config.rpcUrl,
      fallbackUrls: config.rpcUrls.slice(1),
    });
  }
  return client;
}
