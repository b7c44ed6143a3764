import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { DemoIdentityBanner } from "@/components/demo-identity-banner";
import { SessionProvider } from "@/components/session-provider";
import { SiteHeader } from "@/components/site-header";
import { appUrl } from "@/lib/env";
import "./globals.css";

const description =
  "Brands hire creators for milestone deals. An AI checks each deliverable and USDC is paid on-chain in proportion to its score.";

export const metadata: Metadata = {
  // Absolute link previews (the Open Graph image in public/) on the deployment's own URL.
  metadataBase: new URL(appUrl()),
  title: { default: "Milestone", template: "%s · Milestone" },
  description,
  openGraph: {
    siteName: "Milestone",
    title: "Milestone",
    description,
    images: [{ url: "/og.png", width: 1200, height: 630, alt: "Milestone" }],
  },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#151a26" },
  ],
};

// The root layout reads no request data (no headers(), no cookies()), so pages that need
// none — home, docs, 404 — are prerendered, and it loads only what every page uses. The
// routes with data mount TanStack Query in their layouts (brand, creator, deals, wallet);
// the wallet stack (wagmi) only the routes that use a wallet (deals, wallet; lazily on
// /creator).
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SessionProvider>
          <DemoIdentityBanner />
          <SiteHeader />
          <main id="main" className="container" tabIndex={-1}>
            {children}
          </main>
        </SessionProvider>
      </body>
    </html>
  );
}
