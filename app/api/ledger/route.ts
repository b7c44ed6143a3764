import { requireUser } from "@/lib/auth/caller";
import { getDb } from "@/lib/db";
import { methodNotAllowed, route } from "@/lib/http";
import {
  allLedgerEntries,
  csvResponse,
  ledgerCsv,
  ledgerQuery,
  listLedger,
} from "@/lib/ledger/ledger";

// GET /api/ledger – the caller's money records across all their deals, newest first
// (cursor-paginated); ?format=csv answers the whole filtered ledger as a CSV attachment
export const GET = route(
  { auth: requireUser, scope: "read", query: ledgerQuery },
  async ({ req, user, query }) => {
    const db = await getDb();
    if (query.format === "csv")
      return csvResponse(
        ledgerCsv(await allLedgerEntries(db, user, query), new URL(req.url).origin),
      );
    const page = await listLedger(db, user, query);
    return Response.json({ entries: page.items, nextCursor: page.nextCursor });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
