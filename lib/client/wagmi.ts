import { type Address, type Chain, defineChain, getAddress, isAddress } from "viem";
import {
  type Config,
  type CreateConnectorFn,
  cookieStorage,
  createConfig,
  createStorage,
  http,
  injected,
  mock,
} from "wagmi";
import type { PublicChainInfo } from "@/lib/client/chain-info";

// The wagmi configuration, built from the public chain info the server hands the page (so
// the browser bundle carries no chain settings of its own). Browser-safe; also called on
// the server to read the connection state from the cookie (wagmi's SSR pattern).
//
// Connectors: `injected` (MetaMask, Rabby, … and any EIP-6963 wallet wagmi discovers) for
// real users. The browser tests use wagmi's `mock` connector instead: a page whose window
// has `__MILESTONE_E2E_WALLET__ = "0x…"` set before the app loads (Playwright's
// addInitScript) gets a "Test wallet" connector for that account. It is honoured on the local
// chain only: the mock signs through the node's `eth_sign`, which only anvil's unlocked dev
// accounts answer, so it could not sign anything on a real chain anyway.

declare global {
  interface Window {
    __MILESTONE_E2E_WALLET__?: string;
  }
}

export function chainFromInfo(info: PublicChainInfo): Chain {
  return defineChain({
    id: info.chainId,
    name: info.displayName,
    nativeCurrency: info.nativeCurrency,
    rpcUrls: { default: { http: [info.rpcUrl] } },
    blockExplorers: info.explorerUrl
      ? { default: { name: "Explorer", url: info.explorerUrl } }
      : undefined,
    testnet: info.testnet,
  });
}

/** The e2e test wallet's account, when this page was opened by the browser tests. */
export function testWalletAccount(info: PublicChainInfo): Address | null {
  if (typeof window === "undefined" || info.name !== "local") return null;
  const value = window.__MILESTONE_E2E_WALLET__;
  return typeof value === "string" && isAddress(value, { strict: false })
    ? getAddress(value)
    : null;
}

export function getConfig(
  info: PublicChainInfo,
  opts: { testWallet?: Address | null } = {},
): Config {
  const chain = chainFromInfo(info);
  const connectors: CreateConnectorFn[] = [injected()];
  if (opts.testWallet)
    connectors.push(mock({ accounts: [opts.testWallet], features: { reconnect: true } }));
  return createConfig({
    chains: [chain],
    connectors,
    ssr: true,
    storage: createStorage({ storage: cookieStorage }),
    transports: { [chain.id]: http(info.rpcUrl) },
  });
}
