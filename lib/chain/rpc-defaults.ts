import type { chainNames } from "../env";

// Each chain's public JSON-RPC endpoint, used when RPC_URL is unset. Apart from
// lib/chain/chains.ts (which loads viem's chain definitions) so that next.config.ts's content
// security policy (lib/security-headers.ts) can name them without loading viem at start.
// Relative imports only: next.config.ts loads this file.
export const defaultRpcUrls = {
  local: "http://127.0.0.1:8545",
  "base-sepolia": "https://sepolia.base.org",
  sepolia: "https://ethereum-sepolia-rpc.publicnode.com",
  "arc-testnet": "https://rpc.testnet.arc.network",
  base: "https://mainnet.base.org",
} as const satisfies Record<(typeof chainNames)[number], string>;
