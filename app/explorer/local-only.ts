import { getAddress, isAddress } from "viem";
import { explorerAddressUrl, explorerTxUrl } from "@/lib/chain/chains";
import { chainConfig } from "@/lib/chain/config";

// The explorer pages read the node directly, which is right only for the local chain: it
// has no public explorer, and its node is ours. On any other chain they would be an open,
// unauthenticated proxy to the deployment's RPC provider (often paid, with a key in
// RPC_URL), so they hand over to the chain's own explorer without calling the node.

export type ExplorerTarget =
  | { kind: "invalid" }
  | { kind: "local"; value: string }
  /** The chain's public explorer page, or null when the chain has none. */
  | { kind: "public"; url: string | null; chainName: string };

const txHashPattern = /^0x[0-9a-fA-F]{64}$/;

/** What a /explorer/tx or /explorer/address page should do with its path value. */
export function explorerTarget(page: "tx" | "address", value: string): ExplorerTarget {
  const valid = page === "tx" ? txHashPattern.test(value) : isAddress(value, { strict: false });
  if (!valid) return { kind: "invalid" };
  const normalised = page === "tx" ? value.toLowerCase() : getAddress(value);
  const { known } = chainConfig();
  if (known.name === "local") return { kind: "local", value: normalised };
  const url =
    page === "tx"
      ? explorerTxUrl(known, normalised as `0x${string}`)
      : explorerAddressUrl(known, normalised as `0x${string}`);
  return { kind: "public", url, chainName: known.chain.name };
}
