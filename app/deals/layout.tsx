import type { ReactNode } from "react";
import { QueryProvider } from "@/components/query-provider";
import { WalletRoot } from "@/components/wallet/wallet-root";

// The deal page funds, cancels and shows escrow state from the brand's wallet: the wallet
// stack (wagmi, on TanStack Query) is mounted for /deals/* here, not in the root layout.
export default function DealsLayout({ children }: { children: ReactNode }) {
  return (
    <QueryProvider>
      <WalletRoot>{children}</WalletRoot>
    </QueryProvider>
  );
}
