import type { ReactNode } from "react";
import { QueryProvider } from "@/components/query-provider";
import { WalletRoot } from "@/components/wallet/wallet-root";
import { siweSignInEnabled } from "@/lib/env";

// "Sign in with Ethereum" needs the wallet stack (wagmi): mounted here only while that
// method is on (SIWE_SIGN_IN), so /sign-in without it downloads none of it.
export default function SignInLayout({ children }: { children: ReactNode }) {
  if (!siweSignInEnabled()) return children;
  return (
    <QueryProvider>
      <WalletRoot>{children}</WalletRoot>
    </QueryProvider>
  );
}
