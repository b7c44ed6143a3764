"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useState } from "react";
import { type State, WagmiProvider } from "wagmi";
import type { PublicChainInfo } from "@/lib/client/chain-info";
import { getConfig, testWalletAccount } from "@/lib/client/wagmi";

// wagmi + react-query for the wallet components, and the chain facts they need (USDC and
// registry addresses, explorer). Mounted once in the root layout through <WalletRoot>.

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
  // One config and one query client per page load (not per render).
  const [config] = useState(() => getConfig(info, { testWallet: testWalletAccount(info) }));
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1 } } }),
  );
  return (
    <WagmiProvider config={config} initialState={initialState}>
      <QueryClientProvider client={queryClient}>
        <ChainInfoContext.Provider value={info}>{children}</ChainInfoContext.Provider>
      </QueryClientProvider>
    </WagmiProvider>
  );
}

/** The active chain as the server described it; must be used under <WalletProvider>. */
export function useChainInfo(): PublicChainInfo {
  const info = useContext(ChainInfoContext);
  if (!info) throw new Error("useChainInfo() must be used inside <WalletProvider>");
  return info;
}
