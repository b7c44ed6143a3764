"use client";

import { SessionGate } from "@/components/deals/session-gate";
import { WalletPanel } from "./wallet-panel";

// The /wallet page's body: the wallet panel for the signed-in user.
export function WalletPageBody() {
  return (
    <SessionGate what="your wallet">
      {() => (
        <div className="stack">
          <div>
            <h1>Wallet</h1>
            <p className="muted" style={{ margin: 0 }}>
              Milestone pays creators in USDC on-chain. Link the wallet that should receive your
              payouts; on a testnet you can also get a little test USDC to try things out.
            </p>
          </div>
          <WalletPanel title="Your wallet" />
        </div>
      )}
    </SessionGate>
  );
}
