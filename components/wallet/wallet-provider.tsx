"use client";

import { createContext, type ReactNode, useContext, useState } from "react";
import { type State, WagmiProvider } from "wagmi";
import type { PublicChainInfo } from "@/lib/client/chain-info";
import { getConfig, testWalletAccount } from "@/lib/client/wagmi";

// wagmi for the wallet components, and the chain facts they need (USDC and registry
// addresses, explorer). Mounted only by the routes that use a wallet (through <WalletRoot>
// in their layout, or lazily by the creator dashboard), so other pages do not download the
// wallet stack; TanStack Query comes from the root layout's <QueryProvider>.

const ChainInfoContext = createContext<PublicChainInfo | null>(null);

export function WalletProvider({
  info,
  initialState,
  children,
}: {
  info: PublicChainInfo;
  initialState?: State;
  children: ReactNode;
}) {
  // One config per page load (not per render).
  const [config] = useState(() => getConfig(info, { testWallet: testWalletAccount(info) }));
  return (
    <WagmiProvider config={config} initialState={initialState}>
      <ChainInfoContext.Provider value={info}>{children}</ChainInfoContext.Provider>
    </WagmiProvider>
  );
}

/** The active chain as the server described it; must be used under <WalletProvider>. */
export function useChainInfo(): PublicChainInfo {
  const info = useContext(ChainInfoContext);
  if (!info) throw new Error("useChainInfo() must be used inside <WalletProvider>");
  return info;
}
