import { and, asc, eq, getTableColumns, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import {
  type ChainTransaction,
  chainTransactions,
  type Settlement,
  settlements,
} from "@/db/schema";

// What reconcile (lib/settle/reconcile.ts) finds left behind: the service's own unfinished
// work across every deal — no person asks, so no owner to filter by.

/**
 * Settlements on `chainId` still `pending` or `submitted`; `settlementId` / `dealId` narrow
 * it to one settlement or one deal's. In the order their transactions were signed (each
 * signer's nonces ascending, then those with none, oldest first): reconcile resumes them one
 * after another, and a transaction the node lost can be mined only after the lower nonces of
 * its signer — resumed out of order, each would wait its whole receipt timeout for the one
 * behind it.
 */
export function listOpenSettlements(
  db: DbOrTx,
  opts: { chainId: number; settlementId?: string; dealId?: string },
): Promise<Settlement[]> {
  return db
    .select(getTableColumns(settlements))
    .from(settlements)
    .leftJoin(chainTransactions, eq(chainTransactions.id, settlements.chainTxId))
    .where(
      and(
        eq(settlements.chainId, opts.chainId),
        inArray(settlements.status, ["pending", "submitted"]),
        opts.settlementId ? eq(settlements.id, opts.settlementId) : undefined,
        opts.dealId ? eq(settlements.dealId, opts.dealId) : undefined,
      ),
    )
    .orderBy(
      asc(chainTransactions.fromAddress),
      sql`${chainTransactions.nonce} asc nulls last`,
      asc(settlements.createdAt),
    );
}

/** Transactions on `chainId` still `pending` or `submitted` that belong to no settlement. */
export function listUnsettledInFlightTransactions(
  db: DbOrTx,
  chainId: number,
): Promise<ChainTransaction[]> {
  return db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, chainId),
        inArray(chainTransactions.status, ["pending", "submitted"]),
        notInArray(
          chainTransactions.id,
          // NOT IN over a NULL would match nothing: only linked rows.
          db
            .select({ id: settlements.chainTxId })
            .from(settlements)
            .where(and(eq(settlements.chainId, chainId), isNotNull(settlements.chainTxId))),
        ),
      ),
    );
}
