import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { DemoGate } from "@/components/demo/demo-gate";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { currentUser } from "@/lib/auth/server-user";
import { chainById } from "@/lib/chain/chains";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { entryLabel, ledgerDate } from "@/lib/ledger/labels";
import { getLedgerEntry, type LedgerEntryJson } from "@/lib/ledger/ledger";
import { PrintButton } from "./print-button";

export const metadata: Metadata = { title: "Receipt" };

const ENTRY_ID = /^(funding|release|remainder|refund|withdrawal)-[0-9a-f-]{36}$/;

// Printing: only the receipt — no site header, navigation or buttons; links show their target.
const PRINT_CSS = `@media print {
  .header, .skip-link, .no-print, .demo-banner { display: none !important; }
  body { background: #fff; color: #000; }
  .receipt { border: 0; box-shadow: none; padding: 0; max-width: none; }
  .receipt a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.8em; word-break: break-all; }
  .receipt .mono { word-break: break-all; }
}`;

// /ledger/receipts/[id] – one payment of the signed-in user's, printable. Anyone else's id,
// or one that does not exist, is a real 404: notFound() runs in the page itself, before
// anything of the answer is rendered (as the deal page does).
export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await currentUser();
  if (!user) return <SignInPrompt what="this receipt" next={`/ledger/receipts/${id}`} />;
  if (!ENTRY_ID.test(id)) notFound();
  let entry: LedgerEntryJson;
  try {
    entry = await getLedgerEntry(await getDb(), user, id);
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  }
  return (
    <DemoGate>
      <Receipt entry={entry} you={user.displayName ?? user.email} />
    </DemoGate>
  );
}

function Receipt({ entry, you }: { entry: LedgerEntryJson; you: string }) {
  const network = entry.chainId ? (chainById(entry.chainId)?.chain.name ?? "") : "";
  return (
    <article className="card stack receipt narrow" aria-labelledby="receipt-title">
      <style>{PRINT_CSS}</style>
      <div className="row no-print" style={{ justifyContent: "space-between" }}>
        <Link href="/ledger">← All payments</Link>
        <PrintButton />
      </div>
      <header className="stack tight">
        <p className="muted small" style={{ margin: 0 }}>
          Milestone · receipt
        </p>
        <h1 id="receipt-title" style={{ margin: 0 }}>
          {entryLabel(entry)}
        </h1>
        <p className="mono" style={{ fontSize: "1.6rem", margin: 0 }} data-testid="receipt-amount">
          {entry.amount} USDC
        </p>
      </header>
      <dl className="receipt-facts" style={{ display: "grid", gap: "0.5rem", margin: 0 }}>
        <Fact term="Date">{ledgerDate(entry.date)}</Fact>
        <Fact term="Receipt number">
          <span className="mono">{entry.id}</span>
        </Fact>
        <Fact term="Account">{you}</Fact>
        {entry.deal ? (
          <Fact term="Deal">
            {entry.deal.title} <span className="mono small muted">({entry.deal.id})</span>
          </Fact>
        ) : null}
        {entry.milestone ? (
          <Fact term="Milestone">
            {entry.milestone.position + 1}. {entry.milestone.title}
          </Fact>
        ) : null}
        <Fact term="Amount">
          {entry.amount} USDC <span className="muted small">({entry.amountUnits} base units)</span>
        </Fact>
        <Fact term="From">
          <span className="mono">{entry.from ?? "—"}</span>
        </Fact>
        <Fact term="To">
          <span className="mono">{entry.to ?? "—"}</span>
        </Fact>
        <Fact term="Other party">
          {entry.counterparty.name ?? "—"}
          {entry.counterparty.address ? (
            <>
              {" "}
              <span className="mono small">{entry.counterparty.address}</span>
            </>
          ) : null}
        </Fact>
        {network ? (
          <Fact term="Network">
            {network} (chain {entry.chainId})
          </Fact>
        ) : null}
        <Fact term="Transaction">
          {entry.txHash ? (
            entry.explorerUrl ? (
              <a className="mono" href={entry.explorerUrl}>
                {entry.txHash}
              </a>
            ) : (
              <span className="mono">{entry.txHash}</span>
            )
          ) : (
            <span className="muted">not recorded</span>
          )}
        </Fact>
        {entry.verdictHash ? (
          <Fact term="Verdict hash">
            <span className="mono" data-testid="receipt-verdict">
              {entry.verdictHash}
            </span>
            <div className="muted small">
              The fingerprint of the verification decision this payment was made on; the release
              transaction carries it.
            </div>
          </Fact>
        ) : null}
      </dl>
    </article>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="stack tight" style={{ gap: "0.1rem" }}>
      <dt className="muted small">{term}</dt>
      <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{children}</dd>
    </div>
  );
}
