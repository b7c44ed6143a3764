// The chain facts the browser needs, sent by the server (lib/chain/public-info.ts) as a plain
// serializable object. Browser-safe: no server modules here.

export type PublicChainInfo = {
  chainId: number;
  /** The configured chain's key: "local", "base-sepolia", … */
  name: string;
  /** For people: "Anvil", "Base Sepolia", … */
  displayName: string;
  /** An RPC endpoint the browser may use (never the server's RPC_URL on a public chain). */
  rpcUrl: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  usdc: `0x${string}` | null;
  registry: `0x${string}` | null;
  /** The chain's public explorer; null on the local chain (it has /explorer instead). */
  explorerUrl: string | null;
  testnet: boolean;
};

/** Where a transaction is shown: the public explorer, or this app's local one. */
export function txUrl(info: PublicChainInfo, hash: string): string {
  return info.explorerUrl ? `${info.explorerUrl}/tx/${hash}` : `/explorer/tx/${hash}`;
}

export function addressUrl(info: PublicChainInfo, address: string): string {
  return info.explorerUrl
    ? `${info.explorerUrl}/address/${address}`
    : `/explorer/address/${address}`;
}

export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
