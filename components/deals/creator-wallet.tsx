"use client";

import type { State } from "wagmi";
import { WalletPanel } from "@/components/wallet/wallet-panel";
import { WalletProvider } from "@/components/wallet/wallet-provider";
import type { PublicChainInfo } from "@/lib/client/chain-info";

// The creator dashboard's wallet panel with its own wallet provider: imported on demand by
// the dashboard, so its first load carries no wallet stack.
export default function CreatorWallet({
  info,
  initialState,
  title,
}: {
  info: PublicChainInfo;
  initialState?: State;
  title: string;
}) {
  return (
    <WalletProvider info={info} initialState={initialState}>
      <WalletPanel title={title} />
    </WalletProvider>
  );
}
