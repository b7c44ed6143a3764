import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { formatEther, type Hash } from "viem";
import styles from "@/components/explorer/explorer.module.css";
import {
  AddressLink,
  ChainNote,
  Fact,
  Facts,
  ExplorerProblem as Problem,
  shortHex,
  usdcText,
} from "@/components/explorer/parts";
import { chainConfig } from "@/lib/chain/config";
import { type DecodedEvent, inspectTransaction, type TxView } from "@/lib/chain/inspect";
import { AppError } from "@/lib/errors";
import { explorerTarget } from "../../local-only";

type Props = { params: Promise<{ hash: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { hash } = await params;
  return { title: `Transaction ${shortHex(hash, 10, 6)}` };
}

const statusBadge: Record<TxView["status"], { text: string; tone: string }> = {
  success: { text: "Success", tone: "badge ok" },
  reverted: { text: "Reverted", tone: "badge bad" },
  pending: { text: "Pending", tone: "badge warn" },
  not_found: { text: "Not found", tone: "badge neutral" },
};

// The local block explorer's transaction page: status, parties, gas, decoded events.
// Local chain only; on any other chain it sends the visitor to the chain's own explorer.
export default async function TransactionPage({ params }: Props) {
  const { hash } = await params;
  const target = explorerTarget("tx", hash);
  if (target.kind === "invalid")
    return (
      <Problem title="Not a transaction hash">
        A transaction hash is 0x followed by 64 hex characters; this page was given{" "}
        <code>{hash.slice(0, 80)}</code>.
      </Problem>
    );
  if (target.kind === "public") {
    if (target.url) redirect(target.url);
    return (
      <Problem title="No explorer">{target.chainName} has no block explorer configured.</Problem>
    );
  }
  const config = chainConfig();

  let tx: TxView;
  try {
    tx = await inspectTransaction(target.value as Hash);
  } catch (err) {
    if (err instanceof AppError && err.code === "chain_unavailable")
      return <Problem title="The chain node did not answer">{err.message}</Problem>;
    throw err;
  }
  const badge = statusBadge[tx.status];

  return (
    <div className="stack">
      <section className="card stack" data-testid="explorer-tx">
        <div className="spread">
          <h1>Transaction</h1>
          <span className={badge.tone} data-testid="tx-status">
            {badge.text}
          </span>
        </div>
        <p className={`mono ${styles.hash}`}>{tx.hash}</p>
        {tx.status === "not_found" ? (
          <div className="empty">
            This chain has no transaction with this hash. It may not have been sent yet, or it
            belongs to another chain.
          </div>
        ) : (
          <Facts>
            <Fact label="Block">
              {tx.blockNumber === null
                ? "Not mined yet"
                : `#${tx.blockNumber.toString()}${tx.timestamp ? ` · ${tx.timestamp.toUTCString()}` : ""}`}
            </Fact>
            <Fact label="From">
              {tx.from ? (
                <AddressLink chainId={tx.chainId} address={tx.from} label={tx.fromLabel} full />
              ) : (
                "—"
              )}
            </Fact>
            <Fact label="To">
              {tx.to ? (
                <AddressLink chainId={tx.chainId} address={tx.to} label={tx.toLabel} full />
              ) : (
                "Contract creation"
              )}
            </Fact>
            <Fact label="Call">{tx.method ? <code>{tx.method}</code> : "—"}</Fact>
            <Fact label="Nonce">{tx.nonce ?? "—"}</Fact>
            <Fact label="Gas used">
              {tx.gasUsed === null ? "—" : tx.gasUsed.toLocaleString("en-US")}
            </Fact>
            <Fact label="Fee">{tx.feeWei === null ? "—" : `${formatEther(tx.feeWei)} ETH`}</Fact>
          </Facts>
        )}
      </section>

      {tx.status !== "not_found" && (
        <section className="card stack">
          <h2>Events</h2>
          {tx.events.length === 0 ? (
            <div className="empty">
              {tx.status === "pending" ? "No events until the transaction is mined." : "No events."}
            </div>
          ) : (
            <ul className={styles.events} data-testid="tx-events">
              {tx.events.map((event, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: log order is the identity
                <EventItem key={i} chainId={tx.chainId} event={event} />
              ))}
            </ul>
          )}
        </section>
      )}
      <ChainNote chainId={config.chainId} name={config.known.name} />
    </div>
  );
}

function EventItem({ chainId, event }: { chainId: number; event: DecodedEvent }) {
  if (event.kind === "transfer")
    return (
      <li className={styles.event} data-testid="event-transfer">
        <span className="badge">USDC transfer</span>
        <span className={styles.amount}>{usdcText(event.units)}</span>
        <span className={styles.flow}>
          from <AddressLink chainId={chainId} address={event.from} /> to{" "}
          <AddressLink chainId={chainId} address={event.to} />
        </span>
      </li>
    );
  if (event.kind === "reputation")
    return (
      <li className={styles.event} data-testid="event-reputation">
        <span className="badge ok">Reputation recorded</span>
        <span className={styles.amount}>Score {(event.scoreBps / 100).toFixed(2)}%</span>
        <span className={styles.flow}>
          for <AddressLink chainId={chainId} address={event.wallet} /> · paid{" "}
          {usdcText(event.units)}
        </span>
        <span className="small muted">
          {event.count.toString()} settled milestone{event.count === 1n ? "" : "s"} now, mean{" "}
          {(event.meanScoreBps / 100).toFixed(2)}% · milestone{" "}
          <code>{event.milestoneId ?? shortHex(event.milestoneRef, 10, 8)}</code>
        </span>
      </li>
    );
  return (
    <li className={styles.event}>
      <span className="badge neutral">{event.name}</span>
      <span className="small muted">emitted by {event.contract}</span>
    </li>
  );
}
