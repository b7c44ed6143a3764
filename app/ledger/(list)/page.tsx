import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { DemoGate } from "@/components/demo/demo-gate";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { currentUser } from "@/lib/auth/server-user";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { entryLabel, kindOptions, ledgerDate, shortAddress } from "@/lib/ledger/labels";
import { type LedgerEntryJson, ledgerQuery, listLedger } from "@/lib/ledger/ledger";

export const metadata: Metadata = {
  title: "Payments",
  description: "Every payment on your deals: fundings, payouts, refunds, with receipts and CSV.",
};

type Search = Record<string, string | string[] | undefined>;

const FILTERS = ["kind", "from", "to", "dealId"] as const;

/** The filters in the address, as strings (empty ones dropped). */
function filtersOf(search: Search): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FILTERS) {
    const v = search[k];
    if (typeof v === "string" && v !== "") out[k] = v;
  }
  return out;
}

// /ledger – the signed-in user's money records across their deals (lib/ledger), rendered on
// the server: filters (a plain GET form), newest first, 25 a page, a printable receipt per
// entry, and the same filtered list as CSV for an accountant.
export default async function LedgerPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  return (
    <DemoGate>
      <LedgerContent search={search} />
    </DemoGate>
  );
}

async function LedgerContent({ search }: { search: Search }) {
  const user = await currentUser();
  if (!user) return <SignInPrompt what="your payments" next="/ledger" />;
  const filters = filtersOf(search);
  const cursor = typeof search.cursor === "string" ? search.cursor : undefined;
  const parsed = ledgerQuery.safeParse({ ...filters, cursor, limit: "25" });
  let page: Awaited<ReturnType<typeof listLedger>> | null = null;
  let problem: string | null = null;
  if (!parsed.success) problem = "These filters are not valid: check the dates (YYYY-MM-DD).";
  else
    try {
      page = await listLedger(await getDb(), user, parsed.data);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      problem = "That page of results is no longer valid. Start again from the newest.";
    }
  const csvHref = `/api/ledger.csv${Object.keys(filters).length ? `?${new URLSearchParams(filters)}` : ""}`;
  const filtered = Object.keys(filters).length > 0;

  return (
    <div className="stack">
      <section className="card stack">
        <div className="row" style={{ justifyContent: "space-between", alignItems: "baseline" }}>
          <h1 style={{ margin: 0 }}>Payments</h1>
          <a className="btn secondary small" href={csvHref} download data-testid="ledger-export">
            Export CSV
          </a>
        </div>
        <p className="muted small" style={{ margin: 0 }}>
          Every movement of money on your deals: fundings, payouts, refunds. Each has a receipt you
          can print, with the transaction that proves it. Amounts are in USDC; times in UTC.
        </p>
        <Form action="/ledger" className="filters" aria-label="Filter payments">
          <label className="field">
            Kind
            <select name="kind" defaultValue={filters.kind ?? ""}>
              {kindOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            From
            <input type="date" name="from" defaultValue={filters.from ?? ""} />
          </label>
          <label className="field">
            To
            <input type="date" name="to" defaultValue={filters.to ?? ""} />
          </label>
          {filters.dealId ? <input type="hidden" name="dealId" value={filters.dealId} /> : null}
          <div className="row tight fit-end">
            <button type="submit" className="btn small">
              Apply
            </button>
            {filtered ? (
              <Link className="btn small ghost" href="/ledger">
                Clear
              </Link>
            ) : null}
          </div>
        </Form>
      </section>

      {problem ? (
        <section className="card stack" role="alert">
          <p style={{ margin: 0 }}>{problem}</p>
          <Link href="/ledger">Show all payments</Link>
        </section>
      ) : page && page.items.length === 0 ? (
        <section className="card stack" data-testid="ledger-empty">
          <h2 style={{ margin: 0 }}>
            {filtered || cursor ? "Nothing matches" : "No payments yet"}
          </h2>
          <p className="muted" style={{ margin: 0 }}>
            {filtered
              ? "No payment matches these filters."
              : "Payments appear here once a deal is funded, a milestone is paid or money comes back to you."}
          </p>
          {filtered ? <Link href="/ledger">Show all payments</Link> : null}
        </section>
      ) : page ? (
        <section className="card stack" aria-labelledby="ledger-table-caption">
          <LedgerTable entries={page.items} />
          <nav aria-label="Pages" className="row" style={{ justifyContent: "space-between" }}>
            {cursor ? (
              <Link href={`/ledger${filtered ? `?${new URLSearchParams(filters)}` : ""}`}>
                ← Newest
              </Link>
            ) : (
              <span />
            )}
            {page.nextCursor ? (
              <Link
                href={`/ledger?${new URLSearchParams({ ...filters, cursor: page.nextCursor })}`}
                data-testid="ledger-older"
              >
                Older →
              </Link>
            ) : null}
          </nav>
        </section>
      ) : null}
    </div>
  );
}

function TxLink({ e }: { e: LedgerEntryJson }) {
  if (!e.txHash) return <span className="muted">—</span>;
  const external = e.explorerUrl?.startsWith("http");
  return e.explorerUrl ? (
    <a
      href={e.explorerUrl}
      className="mono"
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      {shortAddress(e.txHash)}
      <span className="visually-hidden"> (transaction{external ? ", opens a new tab" : ""})</span>
    </a>
  ) : (
    <span className="mono">{shortAddress(e.txHash)}</span>
  );
}

function LedgerTable({ entries }: { entries: LedgerEntryJson[] }) {
  return (
    <div className="table-scroll">
      <table className="simple" data-testid="ledger-table">
        <caption id="ledger-table-caption" className="visually-hidden">
          Your payments, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">What</th>
            <th scope="col">Deal</th>
            <th scope="col" style={{ textAlign: "right" }}>
              Amount (USDC)
            </th>
            <th scope="col">Other party</th>
            <th scope="col">Transaction</th>
            <th scope="col">
              <span className="visually-hidden">Receipt</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-testid="ledger-row" data-kind={e.kind}>
              <td className="nowrap">{ledgerDate(e.date)}</td>
              <td>{entryLabel(e)}</td>
              <td>
                {e.deal ? (
                  <Link href={`/deals/${e.deal.id}`}>{e.deal.title}</Link>
                ) : (
                  <span className="muted">From your wallet</span>
                )}
                {e.milestone ? (
                  <div className="muted small">
                    Milestone {e.milestone.position + 1}: {e.milestone.title}
                  </div>
                ) : null}
              </td>
              <td className="mono nowrap" style={{ textAlign: "right" }}>
                {e.amount}
              </td>
              <td>
                {e.counterparty.name ?? ""}
                <div className="mono small muted" title={e.counterparty.address ?? undefined}>
                  {shortAddress(e.counterparty.address)}
                </div>
              </td>
              <td>
                <TxLink e={e} />
              </td>
              <td>
                <Link href={`/ledger/receipts/${e.id}`}>
                  Receipt
                  <span className="visually-hidden">
                    {" "}
                    for {entryLabel(e).toLowerCase()}, {ledgerDate(e.date)}
                  </span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
