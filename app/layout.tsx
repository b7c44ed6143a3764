import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { DemoIdentityBanner } from "@/components/demo-identity-banner";
import { SessionProvider } from "@/components/session-provider";
import { SiteHeader } from "@/components/site-header";
import { WalletRoot } from "@/components/wallet/wallet-root";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Milestone", template: "%s · Milestone" },
  description:
    "Brands hire creators for milestone deals. An AI checks each deliverable and USDC is paid on-chain in proportion to its score.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SessionProvider>
          <WalletRoot>
            <DemoIdentityBanner />
            <SiteHeader />
            <main className="container">{children}</main>
          </WalletRoot>
        </SessionProvider>
      </body>
    </html>
  );
}
