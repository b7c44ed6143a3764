import type { Metadata } from "next";
import { WalletPageBody } from "@/components/wallet/wallet-page";

export const metadata: Metadata = { title: "Wallet" };

export default function WalletPage() {
  return <WalletPageBody />;
}
