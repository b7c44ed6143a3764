import type { ReactNode } from "react";
import { walletBootstrap } from "@/components/wallet/wallet-bootstrap";
import { WalletProvider } from "@/components/wallet/wallet-provider";

// The client <WalletProvider> with what it needs from the server for this request (see
// wallet-bootstrap.ts). Mounted by the layouts of the routes that use a wallet.
export async function WalletRoot({ children }: { children: ReactNode }) {
  const { info, initialState } = await walletBootstrap();
  return (
    <WalletProvider info={info} initialState={initialState}>
      {children}
    </WalletProvider>
  );
}
