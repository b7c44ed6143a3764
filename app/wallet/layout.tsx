import type { ReactNode } from "react";
import { QueryProvider } from "@/components/query-provider";
import { WalletRoot } from "@/components/wallet/wallet-root";

// /wallet uses the wallet stack (wagmi, on TanStack Query): mounted here, not in the root
// layout, so pages without a wallet do not download it.
export default function WalletLayout({ children }: { children: ReactNode }) {
  return (
    <QueryProvider>
      <WalletRoot>{children}</WalletRoot>
    </QueryProvider>
  );
}
