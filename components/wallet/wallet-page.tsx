"use client";

import { SessionGate } from "@/components/deals/session-gate";
import { MoneyWallets } from "./money-wallets";
import { WalletPanel } from "./wallet-panel";

// The /wallet page's body: the wallets holding the user's money (balances, sending out, cash
// out), then the browser-wallet panel (connect, link as payout wallet, testnet faucet).
export function WalletPageBody() {
  return (
    <SessionGate what="your wallet">
      {() => (
        <div className="stack">
          <div>
            <h1>Wallet</h1>
            <p className="muted" style={{ margin: 0 }}>
              Milestone pays creators in USDC on-chain. Here is every wallet that holds your money,
              what it holds, and how to send it on — to an exchange, say, or to your bank.
            </p>
          </div>
          <MoneyWallets />
          <WalletPanel title="Payouts and browser wallet" />
        </div>
      )}
    </SessionGate>
  );
}
