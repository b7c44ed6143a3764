import { chainConfig } from "@/lib/chain/config";
import type { PublicChainInfo } from "@/lib/client/chain-info";

// What the browser is told about the chain. On a public chain the browser gets the chain's
// public RPC endpoint, never RPC_URL (which often carries a provider API key); on the local
// chain it gets the anvil URL itself, which has no secret and is only reachable locally.
export function publicChainInfo(): PublicChainInfo {
  const config = chainConfig();
  const { chain } = config.known;
  const local = config.known.name === "local";
  return {
    chainId: config.chainId,
    name: config.known.name,
    displayName: local ? "Local chain (anvil)" : chain.name,
    rpcUrl: local ? config.rpcUrl : config.known.defaultRpcUrl,
    nativeCurrency: { ...chain.nativeCurrency },
    usdc: config.usdc,
    registry: config.registry,
    explorerUrl: config.known.explorerUrl,
    testnet: config.known.testnet,
  };
}
