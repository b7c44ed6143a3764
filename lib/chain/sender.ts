import { randomUUID } from "node:crypto";
import {
  type Address,
  BaseError,
  type Hex,
  keccak256,
  parseTransaction,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { Db, DbOrTx, Tx } from "@/db/client";
import {
  findTransaction,
  heldNonces,
  insertTransaction,
  type NewTransaction,
  oldestInFlight,
  recordOutcome,
  replaceVersion,
  resyncSignerNonce,
  returnSignerNonce,
  signerCounter,
  stalePending,
  takeSignerNonce,
  transactionVersions,
  updateTransaction,
} from "@/db/queries/chain-transactions";
import type { ChainTransaction } from "@/db/schema";
import { type ChainConfig, chainConfig, publicClient } from "@/lib/chain/config";
import { nextBlock } from "@/lib/chain/receipts";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// The one way the service sends a transaction. Per signer and chain:
//  1. estimate gas and fees, then allocate the next nonce from the signer's row in
//     `signer_nonces` (one UPDATE on its own: the row lock lasts that statement, never the
//     signing or the recording), sign, and record the row (with the raw bytes and the hash)
//     before anything is broadcast — with the caller's records, through `link`, in one
//     database transaction (or one statement), so e.g. a settlement and its transfer are
//     recorded together.
//     An allocated nonce is always used: recorded, found held by a live row (someone else
//     uses it), or filled with a no-op self-transfer when the recording fails (fillNonce);
//     a process that dies in between leaves a gap that fillNonceGaps fills (on a late
//     receipt and in reconcile) — a gap would hold every later transaction of the signer.
//     The node's nonce is read only to (re)synchronise that row: the first time a process
//     uses a signer (or the row is missing) and after the node refused one of our nonces;
//  2. broadcast the recorded bytes;
//  3. wait for the receipt (bounded) — only `status === "success"` is confirmed, and only
//     once the chain's confirmation depth is on top of it (0 on the local chain).
// A failure at any point leaves a row that `resumeTransaction` finishes: it finds the
// receipt by hash or re-broadcasts the same signed bytes (same nonce, same hash), so a
// transfer is never lost and never made twice. A transaction left unmined longer than
// TX_REPLACE_AFTER_SECONDS is re-signed on the SAME nonce with higher fees (replaceStuck):
// every version is recorded and whichever one is mined is the transaction, so it still
// happens at most once. A mined transaction a reorg removed is sent again (same bytes).

export type SendRequest = {
  to: Address;
  data: Hex;
  value?: bigint;
  purpose: string;
  /** A gas estimate of this same call already under way (estimateAhead). */
  estimate?: GasEstimate;
};
export type GasEstimate = { to: Address; data: Hex; gas: Promise<bigint | null> };
export type Link = (tx: Tx, row: ChainTransaction) => Promise<void>;
/**
 * A link written by the row's insert itself: `record` inserts the row (as insertTransaction
 * does, same placeholders) and writes the caller's link in one statement (e.g. a
 * data-modifying CTE), atomic on its own: no transaction is opened around it, one round trip
 * under no lock. It resolves to the row and whether the link applied, or undefined when a
 * live row of ours holds the nonce (nothing written; the send is retried on the next one).
 */
export type StatementLink = {
  record: (
    db: Db,
    row: NewTransaction,
  ) => Promise<{ recorded: ChainTransaction; linked: boolean } | undefined>;
};

/**
 * The node answered that the call would revert (its gas estimate failed): nothing was recorded
 * or sent. A 502 chain_unavailable to a caller who gets it as is; callers that race the chain
 * (another send may have done the work meanwhile) catch it and read the chain again.
 */
export class WouldRevert extends AppError {
  constructor(reason: string, cause: unknown) {
    super(
      "chain_unavailable",
      `The transaction would fail on-chain (${reason}). Nothing was sent.`,
      {
        cause,
      },
    );
  }
}

export function chainUnavailable(cause: unknown): AppError {
  return new AppError(
    "chain_unavailable",
    "The blockchain node did not answer. Nothing was lost; try again in a moment.",
    { cause },
  );
}

/** Network-level failures (node down, timeout) as opposed to the node refusing the call. */
export function isTransportError(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  return Boolean(
    err.walk(
      (e) =>
        e instanceof Error &&
        ["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"].includes(
          e.name,
        ),
    ),
  );
}

/**
 * Starts estimating a call's gas before it is recorded (e.g. while the caller's own
 * transaction runs), so the send does not wait for it afterwards. Never rejects: a failed
 * estimate is null, and the send estimates again itself (and reports why it would fail).
 */
export function estimateAhead(key: Hex, call: { to: Address; data: Hex }): GasEstimate {
  const gas = publicClient()
    .estimateGas({ account: signerAccount(key).address, to: call.to, data: call.data })
    .catch(() => null);
  return { to: call.to, data: call.data, gas };
}

const accounts = new Map<Hex, PrivateKeyAccount>();
/** Deriving an account from its key costs a millisecond of CPU: once per key and process. */
export function signerAccount(key: Hex): PrivateKeyAccount {
  let account = accounts.get(key);
  if (!account) {
    account = privateKeyToAccount(key);
    accounts.set(key, account);
  }
  return account;
}

/**
 * The account of a signer address, for re-signing a stuck transaction: any key this process
 * has used (signerAccount), else the service's own keys from the configuration.
 */
function knownSigner(address: string): PrivateKeyAccount | null {
  const wanted = address.toLowerCase();
  for (const account of accounts.values())
    if (account.address.toLowerCase() === wanted) return account;
  const { treasuryKey, sponsorKey } = chainConfig();
  for (const key of [treasuryKey, sponsorKey]) {
    if (!key) continue;
    const account = signerAccount(key);
    if (account.address.toLowerCase() === wanted) return account;
  }
  return null;
}

/** How long a recorded row may wait for its own broadcast before others re-broadcast it
 * (and an allocated nonce without a row before fillNonceGaps fills it). */
const STALE_PENDING_MS = 5_000;

/** Signers whose nonce row this process has synchronised with the chain since it started. */
const synced = new Set<string>();
const signerId = (chainId: number, from: Address) => `${chainId}:${from.toLowerCase()}`;

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
let feeCache: { key: string; until: number; fees: Promise<Fees> } | undefined;

/**
 * Fee caps, read from the node at most once per block interval (two RPCs: the latest
 * block's base fee and the priority fee) instead of for every transaction. The cap allows
 * twice the base fee: the base fee rises at most 12.5 % a block, so a cap read a block or
 * two ago is still above it. A refused broadcast drops the cache (forgetFees).
 */
function currentFees(config: ChainConfig): Promise<Fees> {
  const key = `${config.chainId}:${config.rpcUrl}`;
  const now = Date.now();
  if (feeCache && feeCache.key === key && feeCache.until > now) return feeCache.fees;
  const client = publicClient();
  const fees = Promise.all([
    client.getBlock({ blockTag: "latest" }),
    client.estimateMaxPriorityFeePerGas(),
  ]).then(([block, tip]) => {
    const base = block.baseFeePerGas ?? 0n;
    return { maxFeePerGas: base * 2n + tip, maxPriorityFeePerGas: tip };
  });
  const ttl = config.known.name === "local" ? 1_000 : (config.known.chain.blockTime ?? 2_000);
  const entry = { key, until: now + ttl, fees };
  feeCache = entry;
  fees.catch(() => {
    if (feeCache === entry) feeCache = undefined;
  });
  return fees;
}

function forgetFees(): void {
  feeCache = undefined;
}

/**
 * After the node refused a nonce of ours: a nonce it says is free (never used) goes back
 * to the counter; one it says another transaction used (the key is used elsewhere too)
 * moves the counter past the node's count. Either way the next allocation is right
 * without asking the node again.
 */
async function resyncNonce(
  db: Db,
  row: ChainTransaction,
  onChain: { mined: number; pending: number },
): Promise<void> {
  await resyncSignerNonce(
    db,
    { chainId: row.chainId, from: row.fromAddress },
    onChain.mined > row.nonce ? { atLeast: onChain.pending } : { atMost: row.nonce },
  );
}

/**
 * Signs and records a transaction without broadcasting it. `link` runs in the same
 * database transaction, so whatever the caller records about it commits with it.
 * Every network call (gas, fees, the node's nonce) happens before the nonce is allocated,
 * and the allocation is one statement of its own: no lock is held over signing, the insert
 * or the caller's link, so concurrent senders of one signer do not queue behind each other
 * (on PGlite, one connection, a slow node never holds the database either).
 */
export async function recordTransaction(
  db: Db,
  key: Hex,
  req: SendRequest,
  link?: Link | StatementLink,
): Promise<ChainTransaction> {
  const config = chainConfig();
  const account = signerAccount(key);
  const client = publicClient();
  const signer = signerId(config.chainId, account.address);
  const counter = { chainId: config.chainId, from: account.address };
  const readNonce = () =>
    client.getTransactionCount({ address: account.address, blockTag: "pending" });
  try {
    const estimate = () =>
      client.estimateGas({
        account: account.address,
        to: req.to,
        data: req.data,
        value: req.value,
      });
    const ahead =
      req.estimate && req.estimate.to === req.to && req.estimate.data === req.data && !req.value
        ? req.estimate.gas
        : null;
    const [gas, fees, first] = await Promise.all([
      ahead ? ahead.then((g) => g ?? estimate()) : estimate(),
      currentFees(config),
      synced.has(signer) ? null : readNonce(),
    ]);
    const sign = (nonce: number) =>
      account.signTransaction({
        chainId: config.chainId,
        type: "eip1559",
        to: req.to,
        data: req.data,
        value: req.value ?? 0n,
        nonce,
        gas: (gas * 12n) / 10n,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
    const record = async (nonce: number): Promise<ChainTransaction | null> => {
      const raw = await sign(nonce);
      const row = {
        id: randomUUID(),
        chainId: config.chainId,
        fromAddress: account.address,
        nonce,
        toAddress: req.to,
        data: req.data,
        valueWei: req.value ?? 0n,
        rawTx: raw,
        hash: keccak256(raw),
        purpose: req.purpose,
      };
      if (!link) return (await insertTransaction(db, row)) ?? null;
      if ("record" in link) {
        const out = await link.record(db, row);
        if (!out) return null;
        // Recorded but not linked cannot happen (the caller's statement says why).
        if (!out.linked) throw new Error(`${req.purpose}: the link did not apply`);
        return out.recorded;
      }
      return db.transaction(async (tx) => {
        // Nothing is written when a live row of ours holds the nonce.
        const inserted = await insertTransaction(tx, row);
        if (!inserted) return null;
        await link(tx, inserted);
        return inserted;
      });
    };
    let onChain = first;
    for (;;) {
      // One statement, its own transaction: the signer's row is locked only while the
      // counter moves. `onChain` (the node's pending count) restarts the counter when
      // resynchronising; with none, a missing row is null and the node is read first.
      const nonce = await takeSignerNonce(db, counter, onChain);
      if (nonce === null) {
        // No row for this signer (a new database, or it was removed): read the node once.
        onChain = await readNonce();
        continue;
      }
      onChain = null;
      let recorded: ChainTransaction | null;
      try {
        recorded = await record(nonce);
      } catch (err) {
        // Allocated and not recorded (the caller's link refused, the database failed): the
        // nonce goes back when nobody allocated after it, else a no-op uses it — or every
        // later send would wait behind it.
        await giveBackNonce(db, account, nonce, fees).catch((fillErr) =>
          log.error("an allocated nonce could not be filled; reconcile fills it", {
            from: account.address,
            nonce,
            err: fillErr,
          }),
        );
        throw err;
      }
      if (recorded) {
        synced.add(signer);
        return recorded;
      }
      // A live row of ours holds this nonce (the counter was rewound after a refusal, or
      // resynchronised from a node that had not seen our recorded rows yet): it is used,
      // and the counter moves on past it with the next allocation.
    }
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    if (err instanceof BaseError) {
      // The node answered but the call would fail (e.g. the treasury lacks USDC): nothing
      // was recorded or sent; the operator needs the reason, the caller a clear message.
      log.error("transaction would fail; not sent", { purpose: req.purpose, err });
      throw new WouldRevert(err.shortMessage, err);
    }
    throw err;
  }
}

/**
 * fillNonceGaps for each of the service's own signers (the treasury and the sponsor):
 * reconcile's pass over nonces a dead process allocated and never recorded.
 */
export async function fillServiceNonceGaps(db: Db): Promise<number> {
  const { chainId, treasuryKey, sponsorKey } = chainConfig();
  const from = new Set<string>();
  for (const key of [treasuryKey, sponsorKey]) if (key) from.add(signerAccount(key).address);
  let filled = 0;
  for (const address of from) filled += await fillNonceGaps(db, { chainId, from: address });
  return filled;
}

/** An allocated nonce not recorded: back to the counter if it is the last, else filled. */
async function giveBackNonce(
  db: Db,
  account: PrivateKeyAccount,
  nonce: number,
  fees: Fees,
): Promise<void> {
  const counter = { chainId: chainConfig().chainId, from: account.address };
  if (await returnSignerNonce(db, counter, nonce)) return;
  await fillNonce(db, account, nonce, fees);
}

/** The purpose of the no-op self-transfers that use up abandoned nonces. */
export const NONCE_FILL_PURPOSE = "nonce-fill";

/**
 * Uses `nonce` with a no-op (a transfer of nothing from the signer to itself) and broadcasts
 * it, unless a live row of ours holds that nonce already (then it is used; nothing is
 * written). A recording that lost the race for the nonce to this fill finds it held and
 * takes the next one, so a nonce filled too early costs a little gas, never a payment.
 */
async function fillNonce(
  db: Db,
  account: PrivateKeyAccount,
  nonce: number,
  fees: Fees,
): Promise<ChainTransaction | null> {
  const config = chainConfig();
  const raw = await account.signTransaction({
    chainId: config.chainId,
    type: "eip1559",
    to: account.address,
    value: 0n,
    nonce,
    gas: 21_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  const row = await insertTransaction(db, {
    id: randomUUID(),
    chainId: config.chainId,
    fromAddress: account.address,
    nonce,
    toAddress: account.address,
    data: "0x",
    valueWei: 0n,
    rawTx: raw,
    hash: keccak256(raw),
    purpose: NONCE_FILL_PURPOSE,
  });
  if (!row) return null;
  log.warn("an allocated nonce was not used; filled with a no-op", {
    from: account.address,
    nonce,
    id: row.id,
  });
  try {
    // Its receipt looked for once (a node that mines on arrival has it): else reconcile
    // finishes it, as any transaction left in flight.
    return await awaitReceipt(db, await broadcast(db, row), 0);
  } catch (err) {
    // Recorded: a late receipt's gap check or reconcile re-broadcasts it.
    log.warn("the no-op filling a nonce was not broadcast yet", { id: row.id, err });
    return row;
  }
}

/**
 * Fills the nonces of a signer of ours that were allocated and never recorded (a process
 * died between the two) or freed by a refusal and not taken again: every nonce between the
 * node's mined count and our highest one (or `below`, when given: the gaps that hold that
 * nonce back) that no live row holds, once it is clearly abandoned — a row above it was
 * recorded more than STALE_PENDING_MS ago, or the counter has not moved for that long (a
 * recording takes milliseconds). Both ages are read on the database's clock, which wrote
 * them: an app server's clock that runs ahead would fill a nonce still being recorded.
 * At most `limit` per call. Returns how many were filled.
 */
export async function fillNonceGaps(
  db: Db,
  s: { chainId: number; from: string; below?: number },
  limit = 100,
): Promise<number> {
  const account = knownSigner(s.from);
  if (!account) return 0;
  const config = chainConfig();
  if (s.chainId !== config.chainId) return 0;
  const signer = { chainId: s.chainId, from: account.address };
  const [counter, mined] = await Promise.all([
    signerCounter(db, { ...signer, idleMs: STALE_PENDING_MS }),
    publicClient().getTransactionCount({ address: account.address, blockTag: "latest" }),
  ]);
  if (!counter) return 0;
  const rows = await heldNonces(db, { ...signer, start: mined, staleMs: STALE_PENDING_MS });
  let oldAbove = -1; // the highest nonce held by a row recorded more than STALE_PENDING_MS ago
  for (const r of rows) if (r.stale) oldAbove = r.nonce;
  const held = new Set(rows.map((r) => r.nonce));
  let top = Math.max(counter.nextNonce, (rows.at(-1)?.nonce ?? -1) + 1);
  if (s.below !== undefined) top = Math.min(top, s.below);
  let filled = 0;
  let fees: Fees | undefined;
  for (let n = mined; n < top && filled < limit; n++) {
    if (held.has(n) || !(counter.idle || n < oldAbove)) continue;
    fees ??= await currentFees(config);
    if (await fillNonce(db, account, n, fees)) filled++;
  }
  return filled;
}

/**
 * The gaps below a transaction of ours (fillNonceGaps up to its nonce): what a targeted
 * reconcile fills before resuming it, since nothing else it does would.
 */
export async function fillGapsBelow(
  db: Db,
  row: Pick<ChainTransaction, "chainId" | "fromAddress" | "nonce">,
): Promise<number> {
  return fillNonceGaps(db, { chainId: row.chainId, from: row.fromAddress, below: row.nonce });
}

async function update(
  db: Db,
  id: string,
  set: Partial<ChainTransaction>,
): Promise<ChainTransaction> {
  const row = await updateTransaction(db, id, set);
  if (!row) throw new Error(`chain transaction ${id} vanished`);
  return row;
}

/**
 * Re-broadcasts this signer's earlier rows that were recorded but never reached the node
 * (e.g. the RPC failed right after recording) and are not merely in flight. Such a row
 * holds a nonce below `row`'s, and the node keeps every later transaction of the signer
 * waiting behind that gap until it arrives. Same signed bytes: never a second send.
 */
async function fillNonceGap(db: Db, row: ChainTransaction): Promise<void> {
  // A nonce below it allocated and never recorded (a process died in between) holds it too.
  await fillNonceGaps(db, { chainId: row.chainId, from: row.fromAddress }).catch((err) =>
    log.warn("could not look for unused nonces", { from: row.fromAddress, err }),
  );
  const stuck = await stalePending(db, {
    chainId: row.chainId,
    from: row.fromAddress,
    nonce: row.nonce,
    staleMs: STALE_PENDING_MS,
  });
  for (const earlier of stuck) {
    try {
      await broadcast(db, earlier);
    } catch (err) {
      // A refusal marks it failed (its nonce is reused next); a dead node fails `row` too.
      log.warn("could not re-broadcast an earlier transaction", { id: earlier.id, err });
    }
  }
}

/** Whether the node holds this transaction (in its pool or mined). */
async function nodeKnows(hash: Hex): Promise<boolean> {
  try {
    await publicClient().getTransaction({ hash });
    return true;
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return false;
    if (isTransportError(err)) throw chainUnavailable(err);
    throw err;
  }
}

function refused(err: unknown): AppError {
  return new AppError(
    "chain_unavailable",
    "The blockchain node refused the transaction. Nothing was sent.",
    { cause: err },
  );
}

/**
 * The node answered a broadcast with an error. Its wording is not trusted (providers say
 * "already known" in many ways): the chain decides. Mined → its outcome; held by the node
 * → submitted; its nonce taken by another transaction → it can never be mined → failed;
 * unknown to the node with its nonce still free → refused outright → failed, and the nonce
 * is free for the next transaction. Anything else stays as it is for a later resume.
 */
async function settleRejectedBroadcast(
  db: Db,
  row: ChainTransaction,
  err: unknown,
): Promise<ChainTransaction> {
  const hash = row.hash as Hex;
  // Any version of it: "nonce too low" for a replacement whose original was mined.
  const receipt = await minedVersion(db, row);
  if (receipt) return recordMined(db, row.id, receipt);
  if (await nodeKnows(hash))
    return row.status === "pending" ? update(db, row.id, { status: "submitted" }) : row;
  const from = row.fromAddress as Address;
  const [mined, pending] = await Promise.all([
    publicClient().getTransactionCount({ address: from, blockTag: "latest" }),
    publicClient().getTransactionCount({ address: from, blockTag: "pending" }),
  ]);
  // Read again after the counts: a transaction mined between the two reads is not lost.
  const late = await minedVersion(db, row);
  if (late) return recordMined(db, row.id, late);
  if (mined > row.nonce || pending <= row.nonce) {
    forgetFees(); // refused perhaps for its fee: the next transaction reads them afresh
    log.error("transaction not accepted by the node", { id: row.id, purpose: row.purpose, err });
    const failed = await update(db, row.id, {
      status: "failed",
      error:
        mined > row.nonce
          ? "nonce used by another transaction"
          : (err instanceof Error ? err.message : "refused").slice(0, 500),
    });
    await resyncNonce(db, failed, { mined, pending });
    throw refused(err);
  }
  // Another transaction of ours holds this nonce in the pool: wait for it to resolve.
  log.warn("transaction waits behind another with its nonce", { id: row.id, err });
  throw chainUnavailable(err);
}

/**
 * Broadcasts the recorded bytes. A node that already has them is not an error. An earlier
 * row of ours that never reached the node would hold this one back: that is looked for
 * when the receipt is late (awaitReceipt) and on resumes, not before every broadcast.
 */
export async function broadcast(db: Db, row: ChainTransaction): Promise<ChainTransaction> {
  if (!row.rawTx) throw new Error(`chain transaction ${row.id} has no signed bytes`);
  try {
    await publicClient().sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    return settleRejectedBroadcast(db, row, err);
  }
  return row.status === "pending" ? update(db, row.id, { status: "submitted" }) : row;
}

/**
 * Writes a mined transaction's outcome (only `status === "success"` is confirmed), on the
 * database or in the caller's transaction (see broadcastAndAwait's `confirmIn`).
 */
export async function recordReceipt(
  db: DbOrTx,
  id: string,
  receipt: TransactionReceipt,
  final = true,
): Promise<ChainTransaction> {
  const ok = receipt.status === "success";
  const row = await recordOutcome(db, id, {
    // Mined but not yet final: still `submitted`, with the block it was seen in (a resume
    // checks that block is still the chain's).
    status: final ? (ok ? "confirmed" : "failed") : "submitted",
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    hash: receipt.transactionHash,
    error: ok ? null : "reverted",
  });
  if (!row) throw new Error(`chain transaction ${id} vanished`);
  return row;
}

/** Whether the chain's confirmation depth is on top of this receipt's block. */
export async function isFinal(receipt: TransactionReceipt): Promise<boolean> {
  const depth = BigInt(chainConfig().confirmations);
  if (depth === 0n) return true;
  const head = await publicClient().getBlockNumber({ cacheTime: 0 });
  return head - receipt.blockNumber >= depth;
}

/** Records a mined version: final or not, as the chain's depth says. */
async function recordMined(
  db: Db,
  id: string,
  receipt: TransactionReceipt,
): Promise<ChainTransaction> {
  return recordReceipt(db, id, receipt, await isFinal(receipt).catch(() => false));
}

/** Every hash the transaction was signed under: the current one first. */
async function hashesOf(db: Db, row: ChainTransaction): Promise<Hex[]> {
  const current = row.hash as Hex;
  if (row.versions <= 1) return [current];
  const versions = await transactionVersions(db, row.id);
  return [current, ...versions.map((v) => v.hash as Hex).filter((h) => h !== current)];
}

/**
 * The receipt of whichever version of this transaction was mined (at most one can be: they
 * share a nonce), or null. Its block is checked against the chain's block at that height
 * when a depth is configured, so a receipt from a node that has not seen a reorg yet is
 * not taken for a final one.
 */
async function minedVersion(db: Db, row: ChainTransaction): Promise<TransactionReceipt | null> {
  for (const hash of await hashesOf(db, row)) {
    const receipt = await receiptOf(hash);
    if (!receipt) continue;
    if (chainConfig().confirmations === 0) return receipt;
    const block = await publicClient()
      .getBlock({ blockNumber: receipt.blockNumber })
      .catch(() => null);
    if (block?.hash === receipt.blockHash) return receipt;
  }
  return null;
}

/** The receipt, or null when the node has none; a node that does not answer is a 502. */
async function receiptOf(hash: Hex) {
  try {
    return await publicClient().getTransactionReceipt({ hash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    if (isTransportError(err)) throw chainUnavailable(err);
    throw err;
  }
}

/** The receipt of the first of these hashes the node has, or null. */
async function firstReceipt(hashes: Hex[]): Promise<TransactionReceipt | null> {
  for (const hash of hashes) {
    const receipt = await receiptOf(hash);
    if (receipt) return receipt;
  }
  return null;
}

/**
 * When a wait asks the node for its receipt by hash besides reading blocks (ms after it
 * starts; then every ASK_EVERY_MS): a node can report a block before its receipts are
 * readable (seen on anvil in automine, where no later block may come to read), and a watcher
 * that started after the block was mined does not read it back.
 */
const ASK_AFTER_MS = [50, 250, 1_000];
const ASK_EVERY_MS = STALE_PENDING_MS;
/** The next time to ask after an ask at `at`, for a wait that started at `start`. */
function nextAsk(start: number, at: number): number {
  for (const after of ASK_AFTER_MS) if (start + after > at) return start + after;
  return at + ASK_EVERY_MS;
}

/** New blocks without the transaction after which a wait looks at what may hold it back. */
const BLOCKS_BEFORE_LATE = 2;

/**
 * The receipt once it exists, or null after `timeoutMs`: asked for at once, then awaited
 * block by block (lib/chain/receipts.ts: one head poll and one eth_getBlockReceipts per block
 * for the whole process), and asked for again by hash at 50 ms, 250 ms and 1 s, after two
 * blocks without it, and every 5 s.
 */
export async function pollReceipt(
  hash: Hex,
  timeoutMs: number,
): Promise<TransactionReceipt | null> {
  const start = Date.now();
  const deadline = start + timeoutMs;
  let askAt = start;
  let blocksWithout = 0;
  for (;;) {
    const now = Date.now();
    if (now >= askAt || blocksWithout >= BLOCKS_BEFORE_LATE) {
      blocksWithout = 0;
      askAt = nextAsk(start, now);
      const receipt = await receiptOf(hash);
      if (receipt) return receipt;
    }
    const left = deadline - Date.now();
    if (left <= 0) return null;
    const next = await nextBlock([hash], Math.max(1, Math.min(left, askAt - Date.now())));
    if (next.receipt) return next.receipt;
    if (next.block !== null) blocksWithout++;
  }
}

/**
 * Waits (bounded) for the receipt of any version of the transaction, then for the chain's
 * confirmation depth on top of it. Returns the row as `confirmed` or `failed` (reverted),
 * still `submitted` when the wait timed out (with its block when it was mined but is not
 * final yet) — reconciliation picks it up from there. A transaction still unmined
 * TX_REPLACE_AFTER_SECONDS after it was signed is replaced meanwhile (replaceStuck).
 * The receipt is awaited by block (lib/chain/receipts.ts), and asked for by hash at first
 * (unless the caller just did: `justChecked`), at 50 ms, 250 ms and 1 s, after two blocks
 * without it, every 5 s, and on every block while a mined receipt waits for its depth (a reorg shows as
 * its receipt gone).
 */
export async function awaitReceipt(
  db: Db,
  row: ChainTransaction,
  timeoutMs = env().TX_RECEIPT_TIMEOUT_SECONDS * 1000,
  opts: {
    /** The caller has just replaced it: no second replacement in this wait. */
    justReplaced?: boolean;
    /** The caller asked the node for its receipt a moment ago: the wait starts on blocks. */
    justChecked?: boolean;
    /** A successful final receipt's outcome is written by the caller (broadcastAndAwait). */
    confirmIn?: (receipt: TransactionReceipt) => Promise<ChainTransaction>;
  } = {},
): Promise<ChainTransaction> {
  const deadline = Date.now() + timeoutMs;
  let current = row;
  let hashes = await hashesOf(db, current);
  // Not mined for a while: perhaps an earlier nonce of ours never reached the node, or was
  // never recorded. Looked at after two blocks without it (or once its stale time has
  // passed on a chain that makes no blocks), and again when what was recorded before this
  // row counts as stale (fillNonceGaps waits that long before filling a nonce).
  const start = Date.now();
  let earlyCheck = true;
  let lateCheckAt = start + STALE_PENDING_MS + 100;
  let askAt = opts.justChecked ? nextAsk(start, start) : start;
  let blocksWithout = 0;
  let watched: TransactionReceipt | null = null;
  let seen: TransactionReceipt | null = null;
  let replaced = opts.justReplaced ?? false;
  for (;;) {
    // Asked by hash: at first (unless just asked), a few times in its first second, then
    // every ASK_EVERY_MS, and each block while it waits for depth.
    const ask: boolean = !watched && (seen !== null || Date.now() >= askAt);
    if (ask) askAt = nextAsk(start, Date.now());
    const receipt: TransactionReceipt | null = watched ?? (ask ? await firstReceipt(hashes) : null);
    watched = null;
    if (receipt) {
      if (await isFinal(receipt))
        return opts.confirmIn && receipt.status === "success"
          ? opts.confirmIn(receipt)
          : recordReceipt(db, current.id, receipt);
      // Mined, not final yet: written down once, then waited on block by block.
      if (seen?.blockHash !== receipt.blockHash)
        current = await recordReceipt(db, current.id, receipt, false);
      seen = receipt;
    } else if (seen && ask) {
      // It was mined and is gone: a reorg. Same bytes again (the node may have dropped them).
      current = await sendAgainAfterReorg(db, current);
      seen = null;
    }
    const early = earlyCheck && blocksWithout >= BLOCKS_BEFORE_LATE;
    if (!receipt && !seen && (early || Date.now() >= lateCheckAt)) {
      if (early) earlyCheck = false;
      else lateCheckAt = Number.POSITIVE_INFINITY;
      await fillNonceGap(db, current);
      askAt = Date.now(); // and the receipt asked for by hash next round
    }
    // One replacement per wait: a node that mines nothing at any fee (a frozen chain) is not
    // offered ever higher fees in a loop; the next wait (a resume, reconcile) bumps again.
    const replaceAt = current.signedAt.getTime() + replaceAfterMs();
    if (!replaced && !receipt && !seen && Date.now() >= replaceAt) {
      replaced = true;
      const next = await replaceStuck(db, current);
      if (next.status === "confirmed" || next.status === "failed") return next;
      if (next.hash !== current.hash) hashes = await hashesOf(db, next);
      current = next;
    }
    const now = Date.now();
    const left = deadline - now;
    if (left <= 0) return current;
    // Until the next block, or the next thing due by the clock. Mined and waiting for its
    // depth, only the next block counts (and its receipt is asked for then, by hash).
    const due = seen
      ? left
      : Math.min(left, askAt - now, lateCheckAt - now, replaced ? left : replaceAt - now);
    const next = await nextBlock(seen ? [] : hashes, Math.max(10, due));
    watched = next.receipt;
    if (!next.receipt && next.block !== null) blocksWithout++;
  }
}

const replaceAfterMs = () => env().TX_REPLACE_AFTER_SECONDS * 1000;

/** A mined (not yet final) transaction a reorg removed: forget its block, broadcast again. */
async function sendAgainAfterReorg(db: Db, row: ChainTransaction): Promise<ChainTransaction> {
  log.warn("a reorg removed a mined transaction; sending it again", {
    id: row.id,
    purpose: row.purpose,
    hash: row.hash,
    block: row.blockNumber?.toString(),
  });
  const cleared = await update(db, row.id, { blockNumber: null, blockHash: null });
  return broadcast(db, cleared);
}

/**
 * A transaction recorded as confirmed whose effect the chain no longer shows (the caller read
 * it: e.g. an assignment whose creator is gone). When no version of it is mined now, a reorg
 * removed its block — at depth 0 it was final at once — and it is `submitted` again with the
 * block it was seen in, so that a resume sends the same signed bytes again (same nonce: it
 * cannot happen twice). Returned as it is otherwise.
 */
export async function reopenIfRemoved(db: Db, row: ChainTransaction): Promise<ChainTransaction> {
  if (row.status !== "confirmed" || row.blockNumber === null) return row;
  if (await minedVersion(db, row)) return row;
  return update(db, row.id, { status: "submitted" });
}

/** The fees a replacement must at least offer over `old` (EIP-1559 replacement rule: +10 %). */
const minimumBump = (old: bigint) => (old * 110n + 99n) / 100n;

/**
 * Re-signs a transaction that has stayed unmined since TX_REPLACE_AFTER_SECONDS on the SAME
 * nonce with higher fees — 12.5 % over the stuck version's (at least the node's +10 %
 * replacement rule), or the market's if that is higher — up to the chain's fee ceiling, then
 * broadcasts it. Both versions are recorded (chain_transaction_versions) and whichever is
 * mined counts: they share a nonce, so only one can be. Nothing is re-signed when a version
 * is mined already, when the nonce is used, when no key of ours signs for the address, or
 * when the ceiling leaves no room for the bump (an error is logged: the operator decides).
 */
export async function replaceStuck(db: Db, row: ChainTransaction): Promise<ChainTransaction> {
  if (!row.rawTx || !row.hash) return row;
  if (row.status !== "pending" && row.status !== "submitted") return row;
  const mined = await minedVersion(db, row);
  if (mined) return recordMined(db, row.id, mined);
  const account = knownSigner(row.fromAddress);
  if (!account) {
    log.warn("stuck transaction: no key of ours signs for its sender", { id: row.id });
    return row;
  }
  const config = chainConfig();
  const used = await publicClient().getTransactionCount({
    address: row.fromAddress as Address,
    blockTag: "latest",
  });
  if (used > row.nonce) return row; // its nonce is taken: a broadcast or resume sorts it out
  const old = parseTransaction(row.rawTx as Hex);
  if (old.type !== "eip1559" || !old.maxFeePerGas || old.maxPriorityFeePerGas === undefined)
    return row;
  forgetFees();
  const market = await currentFees(config);
  const bump = (x: bigint) => (x * 1125n + 999n) / 1000n;
  let maxFee = bump(old.maxFeePerGas);
  if (market.maxFeePerGas > maxFee) maxFee = market.maxFeePerGas;
  let tip = bump(old.maxPriorityFeePerGas);
  if (market.maxPriorityFeePerGas > tip) tip = market.maxPriorityFeePerGas;
  if (maxFee > config.maxFeePerGas) maxFee = config.maxFeePerGas;
  if (tip > maxFee) tip = maxFee;
  if (maxFee < minimumBump(old.maxFeePerGas) || tip < minimumBump(old.maxPriorityFeePerGas)) {
    log.error("stuck transaction not replaced: the fee ceiling leaves no room", {
      id: row.id,
      purpose: row.purpose,
      maxFeePerGas: old.maxFeePerGas.toString(),
      ceiling: config.maxFeePerGas.toString(),
    });
    return row;
  }
  const raw = await account.signTransaction({
    chainId: config.chainId,
    type: "eip1559",
    to: old.to ?? undefined,
    data: old.data,
    value: old.value ?? 0n,
    nonce: row.nonce,
    gas: old.gas,
    maxFeePerGas: maxFee,
    maxPriorityFeePerGas: tip,
  });
  const replaced = await replaceVersion(
    db,
    row,
    {
      hash: row.hash,
      rawTx: row.rawTx,
      maxFeePerGas: old.maxFeePerGas,
      maxPriorityFeePerGas: old.maxPriorityFeePerGas,
    },
    { hash: keccak256(raw), rawTx: raw, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip },
  );
  // Another process replaced it (or it was mined and recorded) meanwhile: theirs stands.
  if (!replaced) return (await findTransaction(db, row.id)) ?? row;
  log.warn("stuck transaction replaced with higher fees", {
    id: row.id,
    purpose: row.purpose,
    nonce: row.nonce,
    from: row.hash,
    to: replaced.hash,
    maxFeePerGas: maxFee.toString(),
  });
  return broadcast(db, replaced);
}

/**
 * The alert for stuck transactions: the oldest one still unmined on this chain when it is
 * older than TX_STUCK_ALERT_SECONDS (logged at error level), else null.
 */
export async function stuckTransactionAlert(
  db: Db,
): Promise<{ id: string; purpose: string; ageSeconds: number } | null> {
  const oldest = await oldestInFlight(db, chainConfig().chainId);
  if (!oldest) return null;
  const ageSeconds = Math.floor((Date.now() - oldest.createdAt.getTime()) / 1000);
  if (ageSeconds < env().TX_STUCK_ALERT_SECONDS) return null;
  const alert = { id: oldest.id, purpose: oldest.purpose, ageSeconds };
  log.error("a transaction has been waiting to be mined too long", { ...alert, hash: oldest.hash });
  return alert;
}

/**
 * Broadcasts a row recorded by this very call and waits for its receipt. A node that mines
 * on arrival (anvil's automine) has the receipt at once: then the row goes from `pending`
 * straight to its outcome in one write. Otherwise it is marked `submitted` first, as
 * `broadcast` does, and the receipt is polled for. A crash before either write leaves it
 * `pending`, which a resume re-broadcasts (same bytes) and the chain sorts out.
 * `confirmIn`: when the transaction succeeded (at once, or once its receipt is final
 * within the wait), the caller writes its outcome (recordReceipt; the receipt may be a
 * replacement's, whose hash it records) in its own database transaction with whatever the
 * payment completes, one statement and round trip less; if that transaction fails, the row
 * stays `pending` or `submitted` and a resume finds the receipt.
 */
export async function broadcastAndAwait(
  db: Db,
  row: ChainTransaction,
  timeoutMs = env().TX_RECEIPT_TIMEOUT_SECONDS * 1000,
  confirmIn?: (receipt: TransactionReceipt) => Promise<ChainTransaction>,
): Promise<ChainTransaction> {
  if (!row.rawTx) throw new Error(`chain transaction ${row.id} has no signed bytes`);
  try {
    await publicClient().sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  } catch (err) {
    if (isTransportError(err)) throw chainUnavailable(err);
    return awaitReceipt(db, await settleRejectedBroadcast(db, row, err), timeoutMs);
  }
  const receipt = await receiptOf(row.hash as Hex);
  if (receipt && (await isFinal(receipt)))
    return confirmIn && receipt.status === "success"
      ? confirmIn(receipt)
      : recordReceipt(db, row.id, receipt);
  return awaitReceipt(db, await update(db, row.id, { status: "submitted" }), timeoutMs, {
    justChecked: true,
    confirmIn,
  });
}

/** Record, broadcast and wait: the whole send. Throws chain_unavailable on RPC failure. */
export async function sendTransaction(
  db: Db,
  key: Hex,
  req: SendRequest,
  link?: Link,
): Promise<ChainTransaction> {
  const recorded = await recordTransaction(db, key, req, link);
  return broadcastAndAwait(db, recorded);
}

/**
 * Finishes a transaction left `pending` or `submitted`: confirms it from its receipt, or
 * re-broadcasts the same signed bytes and waits. Never signs anything new.
 */
export async function resumeTransaction(
  db: Db,
  row: ChainTransaction,
  timeoutMs?: number,
): Promise<ChainTransaction> {
  // Decide on the stored row, not the caller's copy: a row another process has since marked
  // failed (refused, nonce freed and maybe reused) must never be re-broadcast.
  const current = (await getChainTransaction(db, row.id)) ?? row;
  if (current.status === "confirmed" || current.status === "failed") return current;
  // Sent before: it may be mined already. A `pending` row was never sent, or its send was
  // cut short — a broadcast the node already has is sorted out by the chain in broadcast.
  if (current.status === "submitted") {
    const receipt = await minedVersion(db, current);
    if (receipt) {
      const mined = await recordMined(db, current.id, receipt);
      return mined.status === "submitted" ? awaitReceipt(db, mined, timeoutMs) : mined;
    }
    // Seen mined before, and no version is on the chain now: a reorg removed it.
    if (current.blockNumber !== null)
      return awaitReceipt(db, await sendAgainAfterReorg(db, current), timeoutMs);
  }
  // Unmined for too long: a new version with higher fees instead of the same bytes.
  const stuck = Date.now() >= current.signedAt.getTime() + replaceAfterMs();
  const sent = stuck ? await replaceStuck(db, current) : await broadcast(db, current);
  if (sent.status === "confirmed" || sent.status === "failed") return sent;
  // Not replaced after all (no room under the ceiling, no key): the same bytes again.
  const out = stuck && sent.hash === current.hash ? await broadcast(db, sent) : sent;
  return awaitReceipt(db, out, timeoutMs, { justReplaced: stuck });
}

export async function getChainTransaction(db: Db, id: string): Promise<ChainTransaction | null> {
  return findTransaction(db, id);
}
