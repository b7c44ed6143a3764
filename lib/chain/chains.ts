import type { Address, Chain, Hash } from "viem";
import { defineChain } from "viem";
import { anvil, base, baseSepolia, sepolia } from "viem/chains";
import { defaultRpcUrls } from "@/lib/chain/rpc-defaults";
import type { chainNames } from "@/lib/env";

// The chains the service can settle on. Only the type comes from lib/env (the list of names
// lives there so configuration parsing can validate CHAIN without importing viem); the default
// RPC URLs from lib/chain/rpc-defaults.ts (next.config.ts needs them without viem).

export type ChainName = (typeof chainNames)[number];

/**
 * Arc testnet per docs.arc.network. Defined here rather than taken from viem/chains because
 * viem's bundled `arcTestnet` lists different (arc.io) RPC and explorer hosts.
 */
export const arcTestnet = defineChain({
  id: 5_042_002,
  name: "Arc Testnet",
  // Arc's native gas token is USDC with 18 decimals; the ERC-20 view of USDC has 6.
  nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
  rpcUrls: { default: { http: ["https://rpc.testnet.arc.network"] } },
  blockExplorers: {
    default: { name: "ArcScan", url: "https://testnet.arcscan.app" },
  },
  contracts: {
    multicall3: { address: "0xcA11bde05977b3631167028862bE2a173976CA11", blockCreated: 0 },
  },
  testnet: true,
});

export interface ChainInfo {
  name: ChainName;
  chain: Chain;
  /** Circle USDC on this chain; null on the local chain, where it comes from the local deployment. */
  usdc: Address | null;
  /**
   * EIP-712 domain name/version of that USDC (needed to sign EIP-3009 authorizations). Base
   * mainnet's token is named "USD Coin", the testnet tokens "USDC". The local MockUSDC uses
   * "USDC"/"2". When in doubt, read `name()` and `version()` from the token.
   */
  usdcDomain: { name: string; version: string };
  /** Block explorer base URL without trailing slash; null when there is none. */
  explorerUrl: string | null;
  testnet: boolean;
  defaultRpcUrl: string;
  /**
   * Blocks on top of a receipt's before its transaction counts as final (CHAIN_CONFIRMATIONS
   * overrides it): 0 on the local node, which never reorganises unless told to.
   */
  confirmations: number;
  /** The highest max fee per gas (gwei) a replacement of a stuck transaction may offer. */
  maxFeeGwei: number;
}

const infos = {
  local: {
    name: "local",
    chain: anvil,
    usdc: null,
    usdcDomain: { name: "USDC", version: "2" },
    explorerUrl: null,
    testnet: true,
    defaultRpcUrl: defaultRpcUrls.local,
    confirmations: 0,
    maxFeeGwei: 1000,
  },
  "base-sepolia": {
    name: "base-sepolia",
    chain: baseSepolia,
    usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    usdcDomain: { name: "USDC", version: "2" },
    explorerUrl: "https://sepolia.basescan.org",
    testnet: true,
    defaultRpcUrl: defaultRpcUrls["base-sepolia"],
    confirmations: 3,
    maxFeeGwei: 50,
  },
  sepolia: {
    name: "sepolia",
    chain: sepolia,
    usdc: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
    usdcDomain: { name: "USDC", version: "2" },
    explorerUrl: "https://sepolia.etherscan.io",
    testnet: true,
    defaultRpcUrl: defaultRpcUrls.sepolia,
    confirmations: 3,
    maxFeeGwei: 500,
  },
  "arc-testnet": {
    name: "arc-testnet",
    chain: arcTestnet,
    usdc: "0x3600000000000000000000000000000000000000",
    usdcDomain: { name: "USDC", version: "2" },
    explorerUrl: "https://testnet.arcscan.app",
    testnet: true,
    defaultRpcUrl: defaultRpcUrls["arc-testnet"],
    confirmations: 1,
    maxFeeGwei: 1000,
  },
  base: {
    name: "base",
    chain: base,
    usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    usdcDomain: { name: "USD Coin", version: "2" },
    explorerUrl: "https://basescan.org",
    testnet: false,
    defaultRpcUrl: defaultRpcUrls.base,
    confirmations: 5,
    maxFeeGwei: 50,
  },
} as const satisfies Record<ChainName, ChainInfo>;

export const chains: Readonly<Record<ChainName, ChainInfo>> = infos;

export function chainByName(name: ChainName): ChainInfo {
  return chains[name];
}

/** The known chain with this id, or undefined. */
export function chainById(id: number): ChainInfo | undefined {
  return Object.values(chains).find((c) => c.chain.id === id);
}

type ChainRef = ChainName | ChainInfo;
const resolve = (c: ChainRef): ChainInfo => (typeof c === "string" ? chains[c] : c);

export function explorerTxUrl(chain: ChainRef, hash: Hash): string | null {
  const url = resolve(chain).explorerUrl;
  return url ? `${url}/tx/${hash}` : null;
}

export function explorerAddressUrl(chain: ChainRef, address: Address): string | null {
  const url = resolve(chain).explorerUrl;
  return url ? `${url}/address/${address}` : null;
}
