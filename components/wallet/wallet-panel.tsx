"use client";

import Link from "next/link";
import { useConnection } from "wagmi";
import { useSession } from "@/components/session-provider";
import { addressUrl, shortAddress } from "@/lib/client/chain-info";
import { ConnectButton } from "./connect-button";
import { FaucetButton } from "./faucet-button";
import { LinkWalletButton } from "./link-wallet-button";
import { ReputationBadge } from "./reputation-badge";
import { UsdcBalance } from "./usdc-balance";
import styles from "./wallet.module.css";
import { useChainInfo } from "./wallet-provider";

// Everything about the signed-in user's wallet in one card: the payout wallet, its USDC
// balance and reputation, connecting and linking a wallet, and the testnet faucet.
// The creator dashboard mounts it; app/wallet is it on a page of its own.

export function WalletPanel({ title = "Wallet" }: { title?: string }) {
  const { user } = useSession();
  const info = useChainInfo();
  const connection = useConnection();
  if (!user) return null;
  const linked = (user.walletAddress as `0x${string}` | null) ?? null;
  const connected = connection.status === "connected" ? connection.address : null;
  // Balance and faucet follow the payout wallet; before one is linked, the connected one.
  const shown = linked ?? connected;

  return (
    <section className="card stack" data-testid="wallet-panel">
      <div className="spread">
        <h2>{title}</h2>
        <span className="badge neutral plain" title="The blockchain network payouts are made on">
          Network: {info.displayName}
        </span>
      </div>

      <div className={styles.facts}>
        <div className={styles.fact}>
          <span className={styles.factLabel}>Payout wallet</span>
          {linked ? (
            <span className={styles.address}>
              <Link href={addressUrl(info, linked)} title={linked} className="mono">
                {shortAddress(linked)}
              </Link>{" "}
              <span className="badge ok" data-testid="wallet-linked">
                Linked
              </span>
            </span>
          ) : (
            <span className="muted" data-testid="wallet-unlinked">
              None yet
            </span>
          )}
        </div>
        <div className={styles.fact}>
          <span className={styles.factLabel}>
            USDC balance{!linked && connected ? " (connected wallet)" : ""}
          </span>
          <span className={styles.balance}>
            <UsdcBalance address={shown} />
          </span>
        </div>
        <div className={styles.fact}>
          <span className={styles.factLabel}>Reputation</span>
          <span>
            <ReputationBadge wallet={shown} />
          </span>
        </div>
      </div>

      {!linked && (
        <p className="small muted" style={{ margin: 0 }}>
          Payouts are sent in USDC to a wallet you have proven is yours. Connect it, then link it by
          signing a message.
        </p>
      )}

      <hr className={styles.divider} />
      <div className={styles.steps}>
        <div className={styles.step}>
          <p className={styles.stepTitle}>Browser wallet</p>
          <ConnectButton />
          <LinkWalletButton />
        </div>
        {info.testnet && (
          <div className={styles.step}>
            <p className={styles.stepTitle}>Test USDC</p>
            <FaucetButton address={shown} />
          </div>
        )}
      </div>
    </section>
  );
}
