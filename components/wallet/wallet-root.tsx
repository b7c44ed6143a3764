import { headers } from "next/headers";
import type { ReactNode } from "react";
import { cookieToInitialState } from "wagmi";
import { WalletProvider } from "@/components/wallet/wallet-provider";
import { publicChainInfo } from "@/lib/chain/public-info";
import { getConfig } from "@/lib/client/wagmi";

// Server side of the wallet setup: reads the chain configuration at request time (not at
// build time) and the wallet connection remembered in the cookie, and hands both to the
// client <WalletProvider>. Mounted by the layouts of the routes that use a wallet.

/** What the client wallet provider needs from the server for this request. */
export async function walletBootstrap() {
  const cookie = (await headers()).get("cookie");
  const info = publicChainInfo();
  return { info, initialState: cookieToInitialState(getConfig(info), cookie) };
}

export async function WalletRoot({ children }: { children: ReactNode }) {
  const { info, initialState } = await walletBootstrap();
  return (
    <WalletProvider info={info} initialState={initialState}>
      {children}
    </WalletProvider>
  );
}
