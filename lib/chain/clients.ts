import {
  type Chain,
  createPublicClient,
  createWalletClient,
  type Hex,
  type HttpTransport,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

// viem clients built from explicit configuration (callers pass what lib/env resolved).

export interface ChainClientConfig {
  chain: Chain;
  rpcUrl: string;
  /** Per-request timeout; defaults to 10s so a dead RPC fails fast instead of hanging a request. */
  timeoutMs?: number;
  /** Retries on transport errors (viem backs off exponentially); small so failures surface quickly. */
  retryCount?: number;
}

export type ChainPublicClient = PublicClient<HttpTransport, Chain>;
export type ChainWalletClient = WalletClient<HttpTransport, Chain, PrivateKeyAccount>;

function transport(config: ChainClientConfig): HttpTransport {
  return http(config.rpcUrl, {
    timeout: config.timeoutMs ?? 10_000,
    retryCount: config.retryCount ?? 2,
    retryDelay: 250,
  });
}

export function makePublicClient(config: ChainClientConfig): ChainPublicClient {
  return createPublicClient({
    chain: config.chain,
    transport: transport(config),
    // Anvil automines instantly; remote chains are polled at viem's default (block-time based).
    pollingInterval: config.chain.id === 31_337 ? 100 : undefined,
  });
}

export function makeWalletClient(config: ChainClientConfig, privateKey: Hex): ChainWalletClient {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: config.chain,
    transport: transport(config),
    pollingInterval: config.chain.id === 31_337 ? 100 : undefined,
  });
}
