import Link from "next/link";
import type { ReactNode } from "react";
import { explorerAddressUrl, explorerTxUrl } from "@/lib/chain/explorer";

export { usdcText } from "@/components/wallet/format";

import styles from "./explorer.module.css";

// Small pieces of the block-explorer pages (and anything else that shows chain data):
// shortened hashes and addresses that link to the local explorer (or the chain's own).

/** "0x1234…abcd": enough to recognise, short enough for a phone. */
export const shortHex = (hex: string, head = 6, tail = 4) =>
  hex.length <= head + tail + 1 ? hex : `${hex.slice(0, head)}…${hex.slice(-tail)}`;

export function AddressLink({
  chainId,
  address,
  label,
  full = false,
}: {
  chainId: number;
  address: string;
  label?: string | null;
  full?: boolean;
}) {
  const href = explorerAddressUrl(chainId, address);
  const text = full ? address : shortHex(address);
  const body = (
    <>
      {label && <span className={styles.label}>{label}</span>}
      <span className="mono">{text}</span>
    </>
  );
  return href ? (
    <Link href={href} title={address} className={styles.hexLink}>
      {body}
    </Link>
  ) : (
    <span title={address}>{body}</span>
  );
}

export function TxLink({
  chainId,
  hash,
  full = false,
}: {
  chainId: number;
  hash: string;
  full?: boolean;
}) {
  const href = explorerTxUrl(chainId, hash);
  const text = <span className="mono">{full ? hash : shortHex(hash, 10, 8)}</span>;
  return href ? (
    <Link href={href} title={hash} className={styles.hexLink}>
      {text}
    </Link>
  ) : (
    <span title={hash}>{text}</span>
  );
}

/** A key/value list that stays readable at phone width: <Facts><Fact label="Block">…</Fact></Facts>. */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className={styles.facts}>{children}</dl>;
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function ChainNote({ chainId, name }: { chainId: number; name: string }) {
  return (
    <p className="small muted">
      {name === "local"
        ? `Local chain (anvil, id ${chainId}). It has no public explorer, so this page reads the node directly.`
        : `Chain ${name} (id ${chainId}), read directly from the configured node.`}
    </p>
  );
}

/** The page body when there is nothing to show: a bad link, or the node is down. */
export function ExplorerProblem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card stack" data-testid="explorer-problem">
      <h1>{title}</h1>
      <p className="muted">{children}</p>
      <div className="row">
        <Link className="btn secondary" href="/">
          Home
        </Link>
      </div>
    </section>
  );
}
