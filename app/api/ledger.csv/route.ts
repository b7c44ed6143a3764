import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import { allLedgerEntries, csvResponse, ledgerCsv, ledgerCsvQuery } from "@/lib/ledger/ledger";

// GET /api/ledger.csv – the caller's whole ledger (filtered as GET /api/ledger) as a CSV
// attachment, for a spreadsheet or an accountant
export const GET = route(
  { auth: requireUser, scope: "read", query: ledgerCsvQuery },
  async ({ req, user, query }) =>
    csvResponse(
      ledgerCsv(await allLedgerEntries(await getDb(), user, query), new URL(req.url).origin),
    ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
