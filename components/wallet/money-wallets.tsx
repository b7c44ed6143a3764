"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { shortAddress } from "@/lib/client/chain-info";
import type { WalletEntryJson, WalletOverviewJson, WithdrawalJson } from "@/lib/wallet/schemas";
import { SendForm, usdcAmount } from "./send-form";
import styles from "./wallet.module.css";

// The wallets that really hold the user's money (GET /api/wallet): the signed-in wallet the
// sign-in provider holds, the linked payout wallet, and for a brand the wallets that funded
// its deals — each with its USDC balance read on-chain. The signed-in wallet can send to an
// address; "Cash out to a bank" and "Buy USDC with a card" appear when configured.

const ROLE_NOTES: Record<string, string> = {
  embedded: "Held for you by your sign-in; no browser extension needed.",
  linked: "Your payout wallet: payments for your work arrive here.",
  funding: "Funded your deals; unspent money from them returns here.",
};

function WalletItem({ wallet, networkName }: { wallet: WalletEntryJson; networkName: string }) {
  const id = useId();
  const [sending, setSending] = useState(false);
  return (
    <li className={styles.walletItem} aria-labelledby={`${id}-label`} data-testid="money-wallet">
      <div className="spread">
        <h3 id={`${id}-label`} style={{ margin: 0 }} data-testid="money-wallet-label">
          {wallet.label}
        </h3>
        {wallet.roles.length > 1 && (
          <span className="badge neutral plain">
            {wallet.roles
              .slice(1)
              .map((r) => (r === "funding" ? "Also funds your deals" : "Also your payout wallet"))
              .join(" · ")}
          </span>
        )}
      </div>
      <div className={styles.facts}>
        <div className={styles.fact}>
          <span className={styles.factLabel}>USDC balance</span>
          <span className={styles.balance} data-testid="money-wallet-balance">
            {usdcAmount(wallet.balance)} USDC
          </span>
        </div>
        <div className={styles.fact}>
          <span className={styles.factLabel}>Address</span>
          <span className={styles.address}>
            {wallet.explorerUrl ? (
              <a href={wallet.explorerUrl} className="mono" title={wallet.address}>
                {shortAddress(wallet.address)}
              </a>
            ) : (
              <span className="mono">{wallet.address}</span>
            )}
          </span>
        </div>
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        {ROLE_NOTES[wallet.roles[0] ?? ""]}
      </p>
      {(wallet.canSend || wallet.offrampUrl || wallet.onrampUrl) && (
        <div className="row">
          {wallet.canSend && !sending && (
            <button type="button" className="btn" onClick={() => setSending(true)}>
              Send to an address
            </button>
          )}
          {wallet.offrampUrl && (
            <a className="btn secondary" href={wallet.offrampUrl} target="_blank" rel="noreferrer">
              Cash out to a bank
            </a>
          )}
          {wallet.onrampUrl && (
            <a className="btn ghost" href={wallet.onrampUrl} target="_blank" rel="noreferrer">
              Buy USDC with a card
            </a>
          )}
        </div>
      )}
      {(wallet.offrampUrl || wallet.onrampUrl) && (
        <p className="small muted" style={{ margin: 0 }}>
          Cash-out and card purchases happen on another company's site, under its terms.
        </p>
      )}
      {wallet.canSend && sending && (
        <div className="stack tight">
          <div className="spread">
            <h4 style={{ margin: 0 }}>Send to an address</h4>
            <button type="button" className="btn small ghost" onClick={() => setSending(false)}>
              Cancel
            </button>
          </div>
          <SendForm wallet={wallet} networkName={networkName} onDone={() => setSending(false)} />
        </div>
      )}
    </li>
  );
}

const STATUS_TEXT: Record<WithdrawalJson["status"], string> = {
  pending: "On its way",
  submitted: "On its way",
  confirmed: "Sent",
  failed: "Not sent",
};

function Sends({ sends }: { sends: WithdrawalJson[] }) {
  if (!sends.length) return null;
  return (
    <div className="stack tight" data-testid="wallet-sends">
      <h3 style={{ margin: 0 }}>Recent sends</h3>
      <ul className={styles.sends}>
        {sends.map((w) => (
          <li key={w.id} className="small">
            <span
              className={
                w.status === "failed"
                  ? "badge bad"
                  : w.status === "confirmed"
                    ? "badge ok"
                    : "badge warn"
              }
            >
              {STATUS_TEXT[w.status]}
            </span>{" "}
            {usdcAmount(w.amount)} USDC to <span className="mono">{shortAddress(w.to)}</span> ·{" "}
            {new Date(w.createdAt).toLocaleString("en-US")}
            {w.explorerUrl && (
              <>
                {" "}
                · <a href={w.explorerUrl}>View transaction</a>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function MoneyWallets() {
  const id = useId();
  const overview = useQuery({
    queryKey: ["wallet-overview"],
    queryFn: () => apiFetch<WalletOverviewJson>("/api/wallet"),
    refetchInterval: 15_000,
  });

  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="money-wallets">
      <div className="spread">
        <h2 id={`${id}-title`}>Where your money is</h2>
        {overview.data && (
          <span className="badge neutral plain">Network: {overview.data.networkName}</span>
        )}
      </div>
      {overview.isPending && (
        <div className="stack tight" role="status">
          <span className="visually-hidden">Loading your wallets…</span>
          <span className="skeleton" style={{ display: "block", height: "5rem" }} />
        </div>
      )}
      {overview.isError && (
        <div className="alert error small" role="alert">
          Could not read your wallets: {errorMessage(overview.error)}{" "}
          <button type="button" className="btn small ghost" onClick={() => void overview.refetch()}>
            Retry
          </button>
        </div>
      )}
      {overview.data && overview.data.wallets.length === 0 && (
        <p className="muted" data-testid="money-wallets-empty" style={{ margin: 0 }}>
          No wallet holds money for you yet. Link a wallet below, or sign in with the option to
          create one.
        </p>
      )}
      {overview.data && overview.data.wallets.length > 0 && (
        <ul className={styles.walletList}>
          {overview.data.wallets.map((w) => (
            <WalletItem key={w.address} wallet={w} networkName={overview.data.networkName} />
          ))}
        </ul>
      )}
      {overview.data && <Sends sends={overview.data.withdrawals} />}
    </section>
  );
}
