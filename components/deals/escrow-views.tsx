"use client";

import Link from "next/link";
import { useState } from "react";
import { useChainInfo } from "@/components/wallet";
import { addressUrl, txUrl } from "@/lib/client/chain-info";
import { type DealJson, formatUsdc, shortHex, toUnits } from "./format";

// Read-only pieces about the deal's money in the escrow: where it stands (locked, paid to
// the creator, returned to the brand), links to transactions and addresses, copyable hashes.

/** A link to a transaction: the public explorer, or the app's own explorer on the local chain. */
export function TxLink({
  hash,
  children = "View transaction",
  className = "small",
  testId,
}: {
  hash: string;
  children?: React.ReactNode;
  className?: string;
  testId?: string;
}) {
  const info = useChainInfo();
  const href = txUrl(info, hash);
  const external = /^https?:/.test(href);
  return (
    <a
      className={className}
      href={href}
      title={hash}
      data-testid={testId}
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      {children}
    </a>
  );
}

/** A shortened address linked to the explorer, the full one in its title. */
export function AddressLink({ address }: { address: string }) {
  const info = useChainInfo();
  return (
    <Link className="mono nowrap" href={addressUrl(info, address)} title={address}>
      {shortHex(address)}
    </Link>
  );
}

/** A 32-byte hash, shortened, with the whole in its title and a copy button. */
export function CopyHash({ value, testId }: { value: string; testId?: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
    window.setTimeout(() => setCopied(null), 2000);
  }
  return (
    <span className="row tight copy-hash">
      <code title={value} data-testid={testId} data-value={value}>
        {shortHex(value, 6)}
      </code>
      <button
        type="button"
        className="btn small ghost"
        onClick={copy}
        aria-label="Copy the full hash"
        title={value}
      >
        {copied === "yes" ? "Copied" : copied === "no" ? "Select it above" : "Copy"}
      </button>
    </span>
  );
}

/** One bar for the budget: paid to the creator, returned to the brand, still locked. */
export function MoneyBar({ deal }: { deal: DealJson }) {
  const budget = toUnits(deal.escrow.budget);
  const pct = (v: string) => (budget === 0n ? 0 : Number((toUnits(v) * 10_000n) / budget) / 100);
  const released = pct(deal.escrow.released);
  const refunded = pct(deal.escrow.refunded);
  const locked = deal.escrow.funded ? pct(deal.escrow.locked) : 0;
  return (
    <div className="money-bar" aria-hidden="true">
      <span className="released" style={{ width: `${released}%` }} />
      <span className="refunded" style={{ width: `${refunded}%` }} />
      <span className="locked" style={{ width: `${locked}%` }} />
    </div>
  );
}

/**
 * The budget as the escrow sees it: locked / paid to the creator / returned to the brand,
 * with a legend-coloured bar. `viewer` words the brand's share ("Returned to you").
 */
export function EscrowMoney({ deal, viewer }: { deal: DealJson; viewer: string }) {
  const { escrow } = deal;
  return (
    <div className="stack tight" data-testid="escrow-money">
      <MoneyBar deal={deal} />
      <dl className="money-facts">
        <div>
          <dt>
            <span className="dot locked" /> Locked in escrow
          </dt>
          <dd className="kv-value" data-testid="deal-locked">
            {escrow.funded ? formatUsdc(escrow.locked) : <span className="muted">Not funded</span>}
          </dd>
        </div>
        <div>
          <dt>
            <span className="dot released" /> Paid to the creator
          </dt>
          <dd className="kv-value" data-testid="deal-paid">
            {formatUsdc(escrow.released)}
          </dd>
        </div>
        <div>
          <dt>
            <span className="dot refunded" />{" "}
            {viewer === "brand" ? "Returned to you" : "Returned to the brand"}
          </dt>
          <dd className="kv-value" data-testid="deal-refunded">
            {formatUsdc(escrow.refunded)}
          </dd>
        </div>
      </dl>
    </div>
  );
}
