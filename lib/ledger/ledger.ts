import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import {
  type LedgerFilter,
  type LedgerKind,
  type LedgerRow,
  ledgerKinds,
  listLedgerRows,
  type RefundReason,
} from "@/db/queries/ledger";
import { explorerTxUrl } from "@/lib/chain/explorer";
import { notFound } from "@/lib/errors";
import type { ledgerEntrySchema } from "@/lib/ledger/schemas";
import { unitsToDecimal } from "@/lib/money";
import { decodeCursor, encodeCursor, type Page, pageQuery, toPage } from "@/lib/pagination";

// A user's money records across all their deals, for their accountant: every funding,
// release (payout), refund (remainder, cancel, expired) and withdrawal, each with its date,
// deal, milestone, amount, counterparty, transaction and (releases) the verdict hash the
// escrow release carried. Derived from the deal, settlement and event records
// (db/queries/ledger.ts); a brand sees its fundings, releases and refunds, a creator the
// releases it received, and everyone what they sent out of their embedded wallet.

export { type LedgerKind, ledgerKinds, type RefundReason };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date (YYYY-MM-DD, UTC) or an ISO 8601 date-time. */
const dateParam = z
  .string()
  .max(40)
  .refine((v) => (DAY.test(v) || v.includes("T")) && !Number.isNaN(Date.parse(v)), {
    message: "must be a date (YYYY-MM-DD) or an ISO 8601 date-time",
  });

export const ledgerQuery = pageQuery.extend({
  kind: z.enum(ledgerKinds).optional().describe("funding | release | refund | withdrawal"),
  dealId: z.uuid().optional().describe("Only this deal's entries"),
  from: dateParam.optional().describe("On or after (a date is its start, UTC)"),
  to: dateParam.optional().describe("On or before (a date includes the whole day, UTC)"),
  format: z.enum(["json", "csv"]).optional().describe("csv: the whole filtered ledger as CSV"),
});
export type LedgerQuery = z.infer<typeof ledgerQuery>;

/** GET /api/ledger.csv: the filters, without paging (the export is the whole ledger). */
export const ledgerCsvQuery = ledgerQuery.pick({ kind: true, dealId: true, from: true, to: true });

export type LedgerEntryJson = z.infer<typeof ledgerEntrySchema>;

export function entryJson(r: LedgerRow): LedgerEntryJson {
  return {
    id: r.id,
    kind: r.kind,
    reason: r.reason,
    role: r.role,
    date: new Date(r.at).toISOString(),
    deal: r.dealId ? { id: r.dealId, title: r.dealTitle ?? "" } : null,
    milestone:
      r.milestoneId && r.milestonePosition !== null
        ? { id: r.milestoneId, position: r.milestonePosition, title: r.milestoneTitle ?? "" }
        : null,
    amount: unitsToDecimal(r.amountUnits),
    amountUnits: r.amountUnits.toString(),
    currency: "USDC",
    from: r.fromAddress,
    to: r.toAddress,
    counterparty: { address: r.counterparty, name: r.counterpartyName },
    chainId: r.chainId,
    txHash: r.txHash,
    explorerUrl: r.txHash && r.chainId ? explorerTxUrl(r.chainId, r.txHash) : null,
    verdictHash: r.verdictHash,
  };
}

const cursorPosition = z.tuple([z.string().max(40), z.string().max(100)]);

function filterOf(userId: string, q: Omit<LedgerQuery, "limit" | "cursor" | "format">) {
  const to = q.to
    ? DAY.test(q.to)
      ? new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000)
      : new Date(Date.parse(q.to) + 1)
    : undefined;
  return {
    userId,
    kind: q.kind,
    dealId: q.dealId,
    from: q.from ? new Date(DAY.test(q.from) ? `${q.from}T00:00:00Z` : q.from) : undefined,
    to,
  } satisfies Omit<LedgerFilter, "limit">;
}

/** GET /api/ledger: a page of the caller's ledger, newest first. */
export async function listLedger(
  db: DbOrTx,
  user: { id: string },
  q: LedgerQuery,
): Promise<Page<LedgerEntryJson>> {
  const after = q.cursor ? decodeCursor("ledger", q.cursor, cursorPosition) : undefined;
  const rows = await listLedgerRows(db, {
    ...filterOf(user.id, q),
    after: after ? { at: after[0], id: after[1] } : undefined,
    limit: q.limit + 1,
  });
  return toPage(rows, q.limit, entryJson, (r) => encodeCursor("ledger", [r.at, r.id]));
}

/** Every entry of the filtered ledger (the CSV export), newest first, read in pages. */
export async function allLedgerEntries(
  db: DbOrTx,
  user: { id: string },
  q: Omit<LedgerQuery, "limit" | "cursor" | "format">,
): Promise<LedgerEntryJson[]> {
  const out: LedgerEntryJson[] = [];
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await listLedgerRows(db, { ...filterOf(user.id, q), after, limit: 1000 });
    out.push(...rows.map(entryJson));
    const last = rows.at(-1);
    if (rows.length < 1000 || !last) return out;
    after = { at: last.at, id: last.id };
  }
}

/** One of the caller's entries (a receipt); 404 for anything else, another user's included. */
export async function getLedgerEntry(
  db: DbOrTx,
  user: { id: string },
  id: string,
): Promise<LedgerEntryJson> {
  const [row] = await listLedgerRows(db, { userId: user.id, id, limit: 1 });
  if (!row) throw notFound("Ledger entry");
  return entryJson(row);
}

// ── CSV (RFC 4180) ───────────────────────────────────────────────────────────────────

export const csvColumns = [
  "date",
  "id",
  "kind",
  "reason",
  "role",
  "deal_id",
  "deal",
  "milestone",
  "amount",
  "currency",
  "from",
  "to",
  "counterparty",
  "counterparty_name",
  "chain_id",
  "tx_hash",
  "explorer_url",
  "verdict_hash",
] as const;

/**
 * One CSV cell: a cell a spreadsheet would run as a formula (starting with = + - @, or a
 * tab or carriage return that hides one) gets a leading apostrophe; then RFC 4180 quoting
 * (in double quotes when it holds a comma, quote, CR or LF; quotes doubled).
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** An absolute explorer link (the local chain's is a path of this app). */
const absolute = (url: string | null, origin: string) =>
  url?.startsWith("/") ? `${origin}${url}` : url;

export function ledgerCsv(entries: LedgerEntryJson[], origin: string): string {
  const lines = [csvColumns.join(",")];
  for (const e of entries)
    lines.push(
      [
        e.date,
        e.id,
        e.kind,
        e.reason,
        e.role,
        e.deal?.id,
        e.deal?.title,
        e.milestone ? `${e.milestone.position + 1}. ${e.milestone.title}` : "",
        e.amount,
        e.currency,
        e.from,
        e.to,
        e.counterparty.address,
        e.counterparty.name,
        e.chainId,
        e.txHash,
        absolute(e.explorerUrl, origin),
        e.verdictHash,
      ]
        .map(csvCell)
        .join(","),
    );
  return `${lines.join("\r\n")}\r\n`;
}

/** The CSV export's answer: an attachment named for the day. */
export function csvResponse(csv: string, now = new Date()): Response {
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="milestone-ledger-${now.toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
}
