import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  lt,
  ne,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { nowIso, placeholder as p, reusable, setTo, timestampAt } from "@/db/reusable";
import {
  type ChainTransaction,
  chainTransactions,
  chainTransactionVersions,
  signerNonces,
  type TxStatus,
} from "@/db/schema";

// Lookups on the sender's transaction log (lib/chain/sender.ts writes it).

const live: TxStatus[] = ["pending", "submitted", "confirmed"];

/**
 * The newest transaction recorded for `purpose` on this chain in one of `statuses`
 * (default: not refused or reverted — the attempt an idempotent write points to), other
 * than `excludeId`. With `["pending", "submitted"]`: an unfinished attempt to resume.
 */
export async function findLatestByPurpose(
  db: DbOrTx,
  p: { chainId: number; purpose: string; excludeId?: string; statuses?: TxStatus[] },
): Promise<ChainTransaction | null> {
  const [row] = await db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, p.chainId),
        eq(chainTransactions.purpose, p.purpose),
        inArray(chainTransactions.status, p.statuses ?? live),
        p.excludeId ? ne(chainTransactions.id, p.excludeId) : undefined,
      ),
    )
    .orderBy(desc(chainTransactions.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The earliest confirmed transaction for `purpose` whose calldata carries `needle` (hex, no
 * 0x): the batch that wrote a record (lib/chain/reputation.ts), when its own answer was lost.
 * Batches are few rows (one per batch), so the scan stays small.
 */
export async function findConfirmedCarrying(
  db: DbOrTx,
  p: { chainId: number; purpose: string; needle: string },
): Promise<ChainTransaction | null> {
  const [row] = await db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, p.chainId),
        eq(chainTransactions.purpose, p.purpose),
        eq(chainTransactions.status, "confirmed"),
        sql`strpos(lower(${chainTransactions.data}), ${p.needle.toLowerCase()}) > 0`,
      ),
    )
    .orderBy(asc(chainTransactions.createdAt))
    .limit(1);
  return row ?? null;
}

// The sender's own writes (lib/chain/sender.ts): the signer's nonce counter and the
// transaction log. The statements every send runs are `reusable` (built once per process).

/** The rows that hold a nonce (the sender-nonce unique index's predicate). */
const holdsNonce = sql`${sql.identifier("status")} <> 'failed' or ${sql.identifier("block_number")} is not null`;

/** `column` is older than `ms` by the database's clock (the one every timestamp here is written by). */
const olderThan = (column: SQLWrapper, ms: number) =>
  sql<boolean>`${column} < now() - ${ms} * interval '1 millisecond'`;

/**
 * The nonces at or above `start` that live rows of this signer hold, ascending, with whether
 * each row was recorded more than `staleMs` ago (fillNonceGaps: a nonce missing below an old
 * row was abandoned).
 */
export async function heldNonces(
  tx: DbOrTx,
  s: { chainId: number; from: string; start: number; staleMs: number },
): Promise<Array<{ nonce: number; stale: boolean }>> {
  return tx
    .select({
      nonce: chainTransactions.nonce,
      stale: olderThan(chainTransactions.createdAt, s.staleMs),
    })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, s.chainId),
        eq(chainTransactions.fromAddress, s.from),
        gte(chainTransactions.nonce, s.start),
        sql`(${holdsNonce})`,
      ),
    )
    .orderBy(asc(chainTransactions.nonce));
}

/** The signer's counter and whether it has not moved (an allocation or a resync) for `idleMs`, or null. */
export async function signerCounter(
  db: DbOrTx,
  s: { chainId: number; from: string; idleMs: number },
): Promise<{ nextNonce: number; idle: boolean } | null> {
  const [row] = await db
    .select({
      nextNonce: signerNonces.nextNonce,
      idle: olderThan(signerNonces.updatedAt, s.idleMs),
    })
    .from(signerNonces)
    .where(and(eq(signerNonces.chainId, s.chainId), eq(signerNonces.address, s.from)));
  return row ?? null;
}

// Transaction-scoped advisory lock (namespace, hash) of one purpose: serialises the
// recording of transactions for that purpose (reputation records) without any signer lock.
const PURPOSE_LOCK = 7103;

/** Holds, until the transaction ends, the lock of this transaction purpose. */
export async function lockPurpose(tx: DbOrTx, purpose: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${sql.raw(String(PURPOSE_LOCK))}, hashtext(${purpose}::text))`,
  );
}

const nextNonceStatement = reusable((db) =>
  db
    .update(signerNonces)
    .set({ nextNonce: sql`${signerNonces.nextNonce} + 1`, updatedAt: sql`now()` })
    .where(and(eq(signerNonces.chainId, p("chainId")), eq(signerNonces.address, p("from"))))
    .returning({ nextNonce: signerNonces.nextNonce })
    .prepare("take_nonce"),
);

/**
 * Takes the signer's next nonce: one statement that locks its row and moves the counter on
 * (given the database, not a transaction, the lock lasts that statement). With `onChain`
 * (resynchronising) the counter starts there, the row created if missing. Null when the
 * signer has no row.
 */
export async function takeSignerNonce(
  tx: DbOrTx,
  s: { chainId: number; from: string },
  onChain: number | null,
): Promise<number | null> {
  if (onChain === null) {
    const [row] = await nextNonceStatement(tx, s);
    return row ? row.nextNonce - 1 : null;
  }
  await tx
    .insert(signerNonces)
    .values({ chainId: s.chainId, address: s.from, nextNonce: onChain })
    .onConflictDoNothing();
  const [row] = await tx
    .update(signerNonces)
    .set({ nextNonce: onChain + 1, updatedAt: sql`now()` })
    .where(and(eq(signerNonces.chainId, s.chainId), eq(signerNonces.address, s.from)))
    .returning({ nextNonce: signerNonces.nextNonce });
  return row ? row.nextNonce - 1 : null;
}

/**
 * Gives an allocated nonce back when nobody has allocated after it (compare-and-set: the
 * counter still stands right after it). True when it did: the next allocation takes it.
 */
export async function returnSignerNonce(
  db: DbOrTx,
  s: { chainId: number; from: string },
  nonce: number,
): Promise<boolean> {
  const rows = await db
    .update(signerNonces)
    .set({ nextNonce: nonce, updatedAt: sql`now()` })
    .where(
      and(
        eq(signerNonces.chainId, s.chainId),
        eq(signerNonces.address, s.from),
        eq(signerNonces.nextNonce, nonce + 1),
      ),
    )
    .returning({ nextNonce: signerNonces.nextNonce });
  return rows.length > 0;
}

/** Sets the signer's counter (`next` may be SQL on the current value). */
export async function setSignerNonce(
  tx: DbOrTx,
  s: { chainId: number; from: string },
  next: number | SQL,
): Promise<void> {
  await tx
    .update(signerNonces)
    .set({ nextNonce: next, updatedAt: sql`now()` })
    .where(and(eq(signerNonces.chainId, s.chainId), eq(signerNonces.address, s.from)));
}

/** After a refusal: the counter moved past the node's count, or back to a freed nonce. */
export async function resyncSignerNonce(
  db: DbOrTx,
  s: { chainId: number; from: string },
  to: { atLeast: number } | { atMost: number },
): Promise<void> {
  await setSignerNonce(
    db,
    s,
    "atLeast" in to
      ? sql`greatest(${signerNonces.nextNonce}, ${to.atLeast})`
      : sql`least(${signerNonces.nextNonce}, ${to.atMost})`,
  );
}

/**
 * The insert of a signed transaction as `pending` (a NewTransaction's placeholders), doing
 * nothing when a live row of this signer already holds its nonce; returns the row inserted.
 * Also the first step of a statement that links it (db/queries/settle-view.ts), which gives
 * the id as its own expression.
 */
export const recordTransactionInsert = (db: DbOrTx, id: SQL | Placeholder = p("id")) =>
  db
    .insert(chainTransactions)
    .values({
      id,
      chainId: p("chainId"),
      fromAddress: p("fromAddress"),
      nonce: p("nonce"),
      toAddress: p("toAddress"),
      data: p("data"),
      valueWei: p("valueWei"),
      rawTx: p("rawTx"),
      hash: p("hash"),
      purpose: p("purpose"),
      status: "pending",
    })
    .onConflictDoNothing({
      target: [chainTransactions.chainId, chainTransactions.fromAddress, chainTransactions.nonce],
      where: holdsNonce,
    })
    .returning();

const insertTransactionStatement = reusable((db) =>
  recordTransactionInsert(db).prepare("record_transaction"),
);

export type NewTransaction = Required<
  Pick<
    typeof chainTransactions.$inferInsert,
    | "id"
    | "chainId"
    | "fromAddress"
    | "nonce"
    | "toAddress"
    | "data"
    | "valueWei"
    | "rawTx"
    | "hash"
    | "purpose"
  >
>;

/**
 * Records a signed transaction as `pending`; undefined (nothing written) when a live row of
 * this signer already holds its nonce.
 */
export async function insertTransaction(
  tx: DbOrTx,
  row: NewTransaction,
): Promise<ChainTransaction | undefined> {
  const [created] = await insertTransactionStatement(tx, row);
  return created;
}

const outcomeStatement = reusable((db) =>
  db
    .update(chainTransactions)
    .set({
      status: setTo("status"),
      blockNumber: sql`${p("blockNumber")}::bigint`,
      blockHash: setTo("blockHash"),
      // The version that was mined becomes the transaction's hash (and its bytes, when it
      // was an earlier one: kept among the versions).
      hash: setTo("hash"),
      rawTx: sql`coalesce((select ${chainTransactionVersions.rawTx} from ${chainTransactionVersions} where ${chainTransactionVersions.hash} = ${p("hash")}), ${chainTransactions.rawTx})`,
      error: setTo("error"),
      updatedAt: timestampAt("now"),
    })
    .where(eq(chainTransactions.id, p("id")))
    .returning()
    .prepare("transaction_outcome"),
);

/**
 * A mined transaction's outcome: confirmed, or failed (reverted), with its block and the
 * hash of the version that was mined; `submitted` while it is mined but not yet final
 * (fewer confirmations than the chain's depth).
 */
export async function recordOutcome(
  db: DbOrTx,
  id: string,
  o: {
    status: "confirmed" | "failed" | "submitted";
    blockNumber: bigint;
    blockHash: string;
    hash: string;
    error: string | null;
  },
): Promise<ChainTransaction | undefined> {
  const [row] = await outcomeStatement(db, {
    id,
    status: o.status,
    blockNumber: o.blockNumber.toString(),
    blockHash: o.blockHash,
    hash: o.hash,
    error: o.error,
    now: nowIso(),
  });
  return row;
}

/** Every version of a replaced transaction (none when it was never replaced), oldest first. */
export async function transactionVersions(
  db: DbOrTx,
  id: string,
): Promise<Array<{ hash: string; rawTx: string }>> {
  return db
    .select({ hash: chainTransactionVersions.hash, rawTx: chainTransactionVersions.rawTx })
    .from(chainTransactionVersions)
    .where(eq(chainTransactionVersions.transactionId, id))
    .orderBy(asc(chainTransactionVersions.createdAt));
}

type Version = { hash: string; rawTx: string; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/**
 * Makes `next` the current version of a transaction still unmined at version `current`
 * (compare-and-set on its hash, so two processes never both replace it), recording both
 * versions. Undefined when the row moved on meanwhile (mined, failed or replaced).
 */
export async function replaceVersion(
  db: Db,
  row: ChainTransaction,
  current: Version,
  next: Version,
): Promise<ChainTransaction | undefined> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(chainTransactions)
      .set({
        hash: next.hash,
        rawTx: next.rawTx,
        signedAt: new Date(),
        versions: sql`${chainTransactions.versions} + 1`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(chainTransactions.id, row.id),
          eq(chainTransactions.hash, current.hash),
          inArray(chainTransactions.status, ["pending", "submitted"]),
        ),
      )
      .returning();
    if (!updated) return undefined;
    await tx
      .insert(chainTransactionVersions)
      .values([current, next].map((v) => ({ ...v, transactionId: row.id })))
      .onConflictDoNothing();
    return updated;
  });
}

/** The oldest transaction on `chainId` still unmined (pending or submitted), if any. */
export async function oldestInFlight(
  db: DbOrTx,
  chainId: number,
): Promise<Pick<ChainTransaction, "id" | "purpose" | "createdAt" | "hash"> | null> {
  const [row] = await db
    .select({
      id: chainTransactions.id,
      purpose: chainTransactions.purpose,
      createdAt: chainTransactions.createdAt,
      hash: chainTransactions.hash,
    })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, chainId),
        inArray(chainTransactions.status, ["pending", "submitted"]),
      ),
    )
    .orderBy(asc(chainTransactions.createdAt))
    .limit(1);
  return row ?? null;
}

export async function updateTransaction(
  db: DbOrTx,
  id: string,
  set: Partial<ChainTransaction>,
): Promise<ChainTransaction | undefined> {
  const [row] = await db
    .update(chainTransactions)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(chainTransactions.id, id))
    .returning();
  return row;
}

/**
 * This signer's rows recorded more than `staleMs` ago (the database's clock) with a nonce
 * below `nonce` that are still `pending` (never reached the node), ascending by nonce.
 */
export async function stalePending(
  db: DbOrTx,
  s: { chainId: number; from: string; nonce: number; staleMs: number },
): Promise<ChainTransaction[]> {
  return db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, s.chainId),
        eq(chainTransactions.fromAddress, s.from),
        eq(chainTransactions.status, "pending"),
        lt(chainTransactions.nonce, s.nonce),
        olderThan(chainTransactions.createdAt, s.staleMs),
      ),
    )
    .orderBy(asc(chainTransactions.nonce));
}

export async function findTransaction(db: DbOrTx, id: string): Promise<ChainTransaction | null> {
  const [row] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, id));
  return row ?? null;
}
