import { headers } from "next/headers";
import type { ReactNode } from "react";
import { cookieToInitialState } from "wagmi";
import { WalletProvider } from "@/components/wallet/wallet-provider";
import { publicChainInfo } from "@/lib/chain/public-info";
import { getConfig } from "@/lib/client/wagmi";

// Server side of the wallet setup: reads the chain configuration at request time (not at
// build time) and the wallet connection remembered in the cookie, and hands both to the
// client <WalletProvider>.
export async function WalletRoot({ children }: { children: ReactNode }) {
  const cookie = (await headers()).get("cookie");
  const info = publicChainInfo();
  const initialState = cookieToInitialState(getConfig(info), cookie);
  return (
    <WalletProvider info={info} initialState={initialState}>
      {children}
    </WalletProvider>
  );
}
