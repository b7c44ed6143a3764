import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { Address } from "viem";
import styles from "@/components/explorer/explorer.module.css";
import {
  AddressLink,
  ChainNote,
  ExplorerProblem,
  Fact,
  Facts,
  shortHex,
  TxLink,
  usdcText,
} from "@/components/explorer/parts";
import { scorePercent } from "@/components/wallet/format";
import { chainConfig } from "@/lib/chain/config";
import { type AddressView, inspectAddress } from "@/lib/chain/inspect";
import { AppError } from "@/lib/errors";
import { explorerTarget } from "../../local-only";

type Props = { params: Promise<{ address: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  return { title: `Address ${shortHex(address)}` };
}

// The local block explorer's address page: USDC balance, reputation, recent transfers.
// Local chain only; on any other chain it sends the visitor to the chain's own explorer.
export default async function AddressPage({ params }: Props) {
  const { address } = await params;
  const target = explorerTarget("address", address);
  if (target.kind === "invalid")
    return (
      <ExplorerProblem title="Not an address">
        An address is 0x followed by 40 hex characters; this page was given{" "}
        <code>{address.slice(0, 80)}</code>.
      </ExplorerProblem>
    );
  if (target.kind === "public") {
    if (target.url) redirect(target.url);
    return (
      <ExplorerProblem title="No explorer">
        {target.chainName} has no block explorer configured.
      </ExplorerProblem>
    );
  }
  const config = chainConfig();

  let view: AddressView;
  try {
    view = await inspectAddress(target.value as Address);
  } catch (err) {
    if (err instanceof AppError && err.code === "chain_unavailable")
      return <ExplorerProblem title="The chain node did not answer">{err.message}</ExplorerProblem>;
    throw err;
  }
  const rep = view.reputation;

  return (
    <div className="stack">
      <section className="card stack" data-testid="explorer-address">
        <div className="spread">
          <h1>{view.label ?? (view.isContract ? "Contract" : "Address")}</h1>
          {view.isContract && <span className="badge neutral">Contract</span>}
        </div>
        <p className={`mono ${styles.hash}`}>{view.address}</p>
        <div className="grid">
          <div>
            <div className="small muted">USDC balance</div>
            <p className={styles.big} data-testid="address-usdc">
              {view.usdcBalance === null ? "—" : usdcText(view.usdcBalance)}
            </p>
          </div>
          <div>
            <div className="small muted">Reputation</div>
            {rep && rep.count > 0 && rep.score !== null ? (
              <p className={styles.big} data-testid="address-reputation">
                {scorePercent(rep.score)}
              </p>
            ) : (
              <p className={styles.none} data-testid="address-reputation">
                {rep ? "No settled milestones" : "Registry not configured"}
              </p>
            )}
            {rep && rep.count > 0 && (
              <div className="small muted">
                mean score of {rep.count} settled milestone{rep.count === 1 ? "" : "s"}
              </div>
            )}
          </div>
        </div>
        {config.registry && (
          <Facts>
            <Fact label="Reputation registry">
              <AddressLink chainId={view.chainId} address={config.registry} full />
            </Fact>
          </Facts>
        )}
      </section>

      <section className="card stack">
        <div className="spread">
          <h2>USDC transfers</h2>
          <span className="small muted">since block #{view.scannedFrom.toString()}</span>
        </div>
        {view.transfers.length === 0 ? (
          <div className="empty">No USDC transfers in or out yet.</div>
        ) : (
          <table className={styles.transfers} data-testid="address-transfers">
            <thead>
              <tr>
                <th>Transaction</th>
                <th className={styles.hideNarrow}>Block</th>
                <th>With</th>
                <th className={styles.num}>Amount</th>
              </tr>
            </thead>
            <tbody>
              {view.transfers.map((t) => (
                <tr key={`${t.hash}:${t.direction}:${t.counterparty}`}>
                  <td>
                    <TxLink chainId={view.chainId} hash={t.hash} />
                  </td>
                  <td className={styles.hideNarrow}>#{t.blockNumber.toString()}</td>
                  <td>
                    <span className={t.direction === "in" ? styles.in : styles.out}>
                      {t.direction === "in" ? "from " : "to "}
                    </span>
                    <AddressLink
                      chainId={view.chainId}
                      address={t.counterparty}
                      label={t.counterpartyLabel}
                    />
                  </td>
                  <td className={styles.num}>
                    <span className={t.direction === "in" ? styles.in : styles.out}>
                      {t.direction === "in" ? "+" : "−"}
                      {usdcText(t.units)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <ChainNote chainId={config.chainId} name={config.known.name} />
    </div>
  );
}
