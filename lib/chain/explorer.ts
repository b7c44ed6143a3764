import {
  chainById,
  explorerAddressUrl as knownAddressUrl,
  explorerTxUrl as knownTxUrl,
} from "@/lib/chain/chains";

// Block-explorer links. Public chains link to their explorer; the local anvil chain has
// none, so it links to the app's own transaction page (/explorer/tx/<hash>).

export function explorerTxUrl(chainId: number, hash: string): string | null {
  const known = chainById(chainId);
  if (!known) return null;
  if (known.name === "local") return `/explorer/tx/${hash}`;
  return knownTxUrl(known, hash as `0x${string}`);
}

export function explorerAddressUrl(chainId: number, address: string): string | null {
  const known = chainById(chainId);
  if (!known) return null;
  if (known.name === "local") return `/explorer/address/${address}`;
  return knownAddressUrl(known, address as `0x${string}`);
}
