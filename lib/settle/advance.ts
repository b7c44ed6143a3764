import { type Hex, isAddressEqual, parseEventLogs, type TransactionReceipt } from "viem";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import type { Db, Tx } from "@/db/client";
import { lockDeal } from "@/db/queries/escrow";
import {
  completeDealIfDone,
  confirmSettlement,
  findSettlement,
  markMilestoneSettled,
  markSettlementFailed,
  releaseSettlementLease,
  returnSettlementToPending,
  takeSettlementLease,
} from "@/db/queries/settlements";
import type { ChainTransaction, Settlement } from "@/db/schema";
import { requireEscrow } from "@/lib/chain/config";
import { nextBlock } from "@/lib/chain/receipts";
import { gelatoRelayer } from "@/lib/chain/relayer";
import type { GasEstimate } from "@/lib/chain/sender";
import {
  broadcastAndAwait,
  chainUnavailable,
  getChainTransaction,
  pollReceipt,
  recordReceipt,
  resumeTransaction,
} from "@/lib/chain/sender";
import { settlementJson } from "@/lib/deals/serialize";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import {
  escrowKey,
  findRelease,
  readEscrowMilestone,
  releaseId,
  releaseInReceipt,
  releasesInReceipt,
} from "@/lib/escrow/chain";
import { MilestoneState } from "@/lib/escrow/onchain";
import { recordEvent } from "@/lib/events/events";
import { log } from "@/lib/log";
import { unitsToDecimal } from "@/lib/money";
import {
  isReleaseBatch,
  type ReleaseTarget,
  releaseTarget,
  submitPayment,
} from "@/lib/settle/payment";
import { recordReputationAfterResponse } from "@/lib/settle/reputation";

// Moves one settlement forward to `confirmed`, from wherever it stopped. The caller
// that holds the lease does the work; a concurrent caller gets settlement_in_progress.
// Every step is written down before the next external call, so a crash anywhere
// leaves a row this same function (from settle or reconcile) can finish.

/** How long a settlement's lease lasts: a receipt's wait and a minute more. */
export const leaseSeconds = () => env().TX_RECEIPT_TIMEOUT_SECONDS + 60;

async function reload(db: Db, id: string): Promise<Settlement> {
  const row = await findSettlement(db, id);
  if (!row) throw new Error(`settlement ${id} vanished`);
  return row;
}

/**
 * Records the confirmed payment: settlement (paid by `txHash`, its Released event at
 * `logIndex` in that receipt), milestone and (when all are paid) deal.
 * `alongside`: the caller's own write, sent with these (e.g. the transaction's outcome).
 */
async function markPaid(
  db: Db,
  s: Settlement,
  txHash: string | null,
  logIndex: number | null,
  alongside?: (tx: Tx) => Promise<unknown>,
): Promise<Settlement> {
  const [done] = await markAllPaid(db, [{ s, txHash, logIndex }], alongside);
  return done as Settlement;
}

/**
 * markPaid for several settlements at once (a batch's), in one database transaction: the
 * statements of all of them sent together, then their events together.
 */
async function markAllPaid(
  db: Db,
  paying: ReadonlyArray<{ s: Settlement; txHash: string | null; logIndex: number | null }>,
  alongside?: (tx: Tx) => Promise<unknown>,
): Promise<Settlement[]> {
  // Each deal's row lock once, in one order (two batches over the same deals never wait on
  // each other crosswise).
  const dealIds = [...new Set(paying.map(({ s }) => s.dealId))].sort();
  return db.transaction(async (tx) => {
    // Sent together (pipelined, one round trip), run in this order: the deals' row locks
    // first — the order claim() takes them in (deal, then milestone); taking the milestone
    // first deadlocked against concurrent claims, and PostgreSQL aborted the payment's
    // bookkeeping — then each deal is completed once none of its milestones is left unpaid,
    // these included. A release that pays the creator nothing (an overdue milestone's
    // refund) returned the whole milestone to the brand: it is refunded, not paid.
    const [locked, done, paid, completed] = await Promise.all([
      Promise.all(dealIds.map((id) => lockDeal(tx, id))),
      Promise.all(
        paying.map(({ s, txHash, logIndex }) =>
          confirmSettlement(tx, s.id, txHash ?? s.txHash, logIndex),
        ),
      ),
      Promise.all(
        paying.map(({ s }) =>
          markMilestoneSettled(tx, s.milestoneId, s.amountUnits === 0n ? "refunded" : "paid"),
        ),
      ),
      Promise.all(dealIds.map((id) => completeDealIfDone(tx, id))),
      alongside?.(tx),
    ]);
    const deals = new Map(dealIds.map((id, i) => [id, locked[i]]));
    // The events, in this order (again one round trip). A bonus's release (its own escrow
    // deal, lib/settle/bonuses.ts) is one `bonus.paid` event of the deal it rewards.
    await Promise.all([
      ...paying.map(({ s, txHash }, i) => {
        if (!paid[i]) return undefined;
        const deal = deals.get(s.dealId);
        const bonusOf = deal?.parentDealId ?? null;
        const refundOnly = s.amountUnits === 0n;
        return bonusOf
          ? recordEvent(tx, {
              dealId: bonusOf,
              type: "bonus.paid",
              data: {
                bonusId: s.dealId,
                amount: unitsToDecimal(s.amountUnits),
                message: deal?.bonusMessage ?? null,
                txHash: txHash ?? s.txHash,
                recipient: s.recipient,
              },
            })
          : recordEvent(tx, {
              dealId: s.dealId,
              milestoneId: s.milestoneId,
              type: refundOnly ? "refunded" : "paid",
              data: {
                // For a refund, `amount` is what went back to the brand (as in the escrow's own refunds).
                amount: unitsToDecimal(refundOnly ? s.refundUnits : s.amountUnits),
                refund: unitsToDecimal(s.refundUnits),
                txHash: txHash ?? s.txHash,
                recipient: s.recipient,
              },
            });
      }),
      ...dealIds.map((id, i) =>
        completed[i] && !deals.get(id)?.parentDealId
          ? recordEvent(tx, { dealId: id, type: "completed" })
          : undefined,
      ),
    ]);
    return done.map((row, i) => {
      if (!row) throw new Error(`settlement ${paying[i]?.s.id} vanished`);
      return row;
    });
  });
}

/**
 * The settlements a confirmed releaseBatch paid (lib/settle/batch.ts), each linked to it and
 * leased to the caller, recorded together (markAllPaid), each at its own Released event in
 * the receipt, read once. One entry per item: its confirmed row, or null for an item this
 * receipt does not pay (skipped, or not in it) — or for all of them when the bookkeeping
 * failed — which the caller advances on its own as any other (advanceSettlement).
 */
export async function markBatchPaid(
  db: Db,
  items: ReadonlyArray<{ settlement: Settlement; target: ReleaseTarget }>,
  sent: SentTransaction,
): Promise<Array<Settlement | null>> {
  const { tx, receipt } = sent;
  if (tx.status !== "confirmed" || !receipt || receipt.status !== "success" || !tx.hash)
    return items.map(() => null);
  const released = releasesInReceipt(receipt);
  const found = items.map(({ target }) => {
    const r = released.get(releaseId(escrowKey(target.deal), target.milestone.position));
    return r && "logIndex" in r ? r.logIndex : null;
  });
  const paying = items.flatMap(({ settlement }, i) => {
    const logIndex = found[i];
    return logIndex === null || logIndex === undefined
      ? []
      : [{ s: settlement, txHash: tx.hash as string, logIndex }];
  });
  if (paying.length === 0) return items.map(() => null);
  try {
    const done = new Map((await markAllPaid(db, paying)).map((row) => [row.id, row]));
    return items.map(({ settlement }) => done.get(settlement.id) ?? null);
  } catch (err) {
    log.warn("a batch's payments could not be recorded together; recording each on its own", {
      txHash: tx.hash,
      err,
    });
    return items.map(() => null);
  }
}

async function markFailed(db: Db, s: Settlement, error: string): Promise<never> {
  await markSettlementFailed(db, s.id, error);
  throw new AppError(
    "chain_unavailable",
    `The payment did not go through (${error}). Settling again retries it.`,
    {
      details: { settlement: settlementJson({ ...s, status: "failed", error }) },
    },
  );
}

/**
 * How long a request waits for a release's receipt: its budget on the chain
 * (CHAIN_BUDGET_SECONDS), at most TX_RECEIPT_TIMEOUT_SECONDS. Past it, advanceSettlement
 * throws stillPending and the request answers 202 (paymentStatus) for reconcile to finish.
 */
export function requestWaitMs(): number {
  const e = env();
  return Math.min(e.TX_RECEIPT_TIMEOUT_SECONDS, e.CHAIN_BUDGET_SECONDS) * 1000;
}

/** A paying route's status: 202 when its answer carries `poll` (sent, not yet confirmed). */
export const paymentStatus = (answer: unknown): number =>
  (answer as { poll?: string }).poll ? 202 : 200;

/** Whether `err` says the payment was sent and is not confirmed yet (stillPending). */
export function isStillPending(err: unknown): err is AppError {
  return (
    err instanceof AppError &&
    err.code === "chain_unavailable" &&
    (err.details as { settlement?: { status?: string } } | undefined)?.settlement?.status ===
      "submitted"
  );
}

function stillPending(s: Settlement): never {
  throw pendingError(s);
}

/** What stillPending throws: the payment was sent and is not confirmed yet (isStillPending). */
export function pendingError(s: Settlement): AppError {
  return new AppError(
    "chain_unavailable",
    "The payment was sent but is not confirmed yet. Settling again (or reconciliation) finishes it.",
    { details: { settlement: settlementJson(s) } },
  );
}

/** Follows an external relayer's task to a final, on-chain-checked state. */
async function followRelayTask(db: Db, s: Settlement): Promise<Settlement> {
  const relayer = gelatoRelayer();
  const deadline = Date.now() + env().TX_RECEIPT_TIMEOUT_SECONDS * 1000;
  for (;;) {
    const task = await relayer.taskStatus(s.relayTaskId as string);
    if (task.state === "reverted" || task.state === "cancelled")
      return (
        (await finishFromEscrow(db, s)) ??
        markFailed(db, s, `relayer task ${task.state}${task.message ? `: ${task.message}` : ""}`)
      );
    if (task.state === "success" && task.txHash) {
      // Trust the chain, not the relayer: only a successful receipt counts as paid.
      const receipt = await pollReceipt(task.txHash as Hex, 30_000);
      if (!receipt) throw chainUnavailable(new Error("the relayed transaction has no receipt yet"));
      if (receipt.status !== "success")
        return (await finishFromEscrow(db, s)) ?? markFailed(db, s, "relayed transaction reverted");
      // A relayer may bundle several releases in one transaction: this milestone's own event.
      const { deal, milestone } = await releaseTarget(db, s);
      const found = releaseInReceipt(receipt, escrowKey(deal), milestone.position);
      if (found && "logIndex" in found) return markPaid(db, s, task.txHash, found.logIndex);
      return (
        (await finishFromEscrow(db, s)) ?? markFailed(db, s, "relayed transaction paid nothing")
      );
    }
    if (Date.now() > deadline) stillPending(s);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * What the escrow says about this settlement's milestone: released (by which transaction),
 * refunded to the brand (expired: it can no longer be paid), or still locked. Asked before
 * anything new is sent and after a transaction failed, so that whichever transaction did
 * the release — ours, a relayer's, an older signature's — is the one recorded.
 */
async function escrowOutcome(
  db: Db,
  s: Settlement,
): Promise<{ released: string; logIndex: number } | { refunded: true } | null> {
  const { deal, milestone } = await releaseTarget(db, s);
  const index = milestone.position;
  const { state } = await readEscrowMilestone(escrowKey(deal), index);
  if (state === MilestoneState.Refunded) return { refunded: true };
  if (state !== MilestoneState.Released) return null;
  const release = await findRelease(escrowKey(deal), index, deal.fundedBlock);
  if (!release) throw new Error(`milestone ${milestone.id} is released but its event is missing`);
  return { released: release.txHash, logIndex: release.logIndex };
}

/**
 * The log index of the escrow's Released event in a single release's receipt (the service's
 * own release has exactly one; logs of other contracts are not looked at).
 */
function singleReleaseLog(receipt: Pick<TransactionReceipt, "logs">): number | null {
  const escrow = requireEscrow();
  const [released] = parseEventLogs({
    abi: milestoneEscrowAbi,
    logs: receipt.logs.filter((l) => isAddressEqual(l.address, escrow)),
    eventName: "Released",
  });
  return released?.logIndex ?? null;
}

async function finishFromEscrow(db: Db, s: Settlement): Promise<Settlement | null> {
  const outcome = await escrowOutcome(db, s);
  if (!outcome) return null;
  if ("released" in outcome) return markPaid(db, s, outcome.released, outcome.logIndex);
  return markFailed(db, s, "the milestone was refunded to the brand after the deadline");
}

/**
 * Nothing of this settlement ever left the service: no transaction recorded, no release
 * signed, no relayer task. Then nothing can have released its milestone (the escrow takes
 * a release only from the evaluator's key or signature), and asking the escrow first is
 * pointless: a fresh settlement goes straight to its payment.
 */
const untouched = (s: Settlement) =>
  s.status === "pending" && !s.chainTxId && !s.relayAuthorization && !s.relayTaskId;

/** Broadcasts a transaction recorded by this very call and waits for it. */
async function sendFresh(db: Db, s: Settlement, known: Known): Promise<Settlement> {
  let recorded: Awaited<ReturnType<typeof submitPayment>>;
  try {
    recorded = await submitPayment(db, s, known.target, known.estimate);
  } catch (err) {
    known.onRecorded?.();
    // The release would revert (the sender estimates it first): the escrow says why.
    const finished = await finishFromEscrow(db, s).catch(() => null);
    if (finished) return finished;
    throw err;
  }
  known.onRecorded?.();
  if (!recorded) return progress(db, await reload(db, s.id));
  const linked: Settlement = {
    ...s,
    chainTxId: recorded.id,
    txHash: recorded.hash,
    status: "submitted",
    error: null,
  };
  // Mined and successful within the wait (at once, on a chain that mines on arrival): the
  // transaction's outcome is written with the payment's bookkeeping, in its transaction —
  // paid by the version that was mined (a replacement has its own hash).
  let paidAtOnce: Settlement | undefined;
  const done = await broadcastAndAwait(db, recorded, known.waitMs, async (receipt) => {
    let confirmed: ChainTransaction | undefined;
    paidAtOnce = await markPaid(
      db,
      linked,
      receipt.transactionHash,
      singleReleaseLog(receipt),
      async (tx) => {
        confirmed = await recordReceipt(tx, recorded.id, receipt);
      },
    );
    return confirmed as ChainTransaction;
  });
  return paidAtOnce ?? finishTransaction(db, linked, done);
}

/**
 * The settlement's transaction has an outcome (or not yet). Confirmed: its receipt says
 * where this milestone's Released event is — a batch (releaseBatch) may instead have skipped
 * it. Reverted: perhaps another transaction released it meanwhile. A batch that skipped the
 * milestone or reverted as a whole is not the end of it: the escrow is asked, and a milestone
 * still locked is sent again on its own (retryAlone: a failed batch is split into single
 * releases, each settlement retried by whoever advances it).
 */
async function finishTransaction(
  db: Db,
  s: Settlement,
  done: Awaited<ReturnType<typeof resumeTransaction>>,
  known: Known = {},
): Promise<Settlement> {
  if (done.status === "confirmed") {
    const receipt =
      known.sent?.receipt?.transactionHash === done.hash
        ? known.sent.receipt
        : await minedReceipt(done.hash as Hex).catch(() => null);
    if (!isReleaseBatch(done)) {
      const logIndex = receipt ? singleReleaseLog(receipt) : null;
      if (logIndex !== null) return markPaid(db, s, done.hash, logIndex);
      // The receipt could not be read again just now: the escrow's own event says which
      // transaction released it, and at which log (an error leaves the row for reconcile).
      return (await finishFromEscrow(db, s)) ?? stillPending(await reload(db, s.id));
    }
    if (!receipt) return (await finishFromEscrow(db, s)) ?? stillPending(await reload(db, s.id));
    const target = known.target ?? (await releaseTarget(db, s));
    const found = releaseInReceipt(receipt, escrowKey(target.deal), target.milestone.position);
    if (found && "logIndex" in found) return markPaid(db, s, done.hash, found.logIndex);
    return retryAlone(
      db,
      s,
      found ? `skipped by its batch (${found.skipped})` : "not in its batch",
      known,
    );
  }
  if (done.status === "failed") {
    // Reverted: perhaps because another transaction already released it.
    const finished = await finishFromEscrow(db, s);
    if (finished) return finished;
    if (isReleaseBatch(done)) return retryAlone(db, s, done.error ?? "its batch failed", known);
    return markFailed(db, s, done.error ?? "transaction failed");
  }
  return stillPending(await reload(db, s.id));
}

/**
 * A mined transaction's receipt: from the blocks the block watcher read lately (the wait for
 * it just saw it there), else asked of the node once.
 */
async function minedReceipt(hash: Hex): Promise<TransactionReceipt | null> {
  return (await nextBlock([hash], 0)).receipt ?? pollReceipt(hash, 0);
}

/**
 * Its batch did not release this settlement's milestone: back to `pending` with the reason
 * (never `failed`, which reconcile does not pick up: a dropped request during the retry, or a
 * token refusing transfers for a while, must not strand it), then advanced again as a pending
 * settlement is — the escrow is asked first (another transaction may have released it), else
 * a release of its own is sent. Whatever stops that now leaves it pending for reconcile.
 */
async function retryAlone(db: Db, s: Settlement, why: string, known: Known): Promise<Settlement> {
  log.warn("a batched release did not pay this settlement; retrying it alone", {
    settlementId: s.id,
    why,
  });
  await returnSettlementToPending(db, s.id, why);
  return progress(
    db,
    { ...s, status: "pending", error: why },
    { target: known.target, waitMs: known.waitMs },
  );
}

/**
 * What the caller already has: the deal and milestone, a gas estimate under way; and how
 * long it may wait for a receipt (default TX_RECEIPT_TIMEOUT_SECONDS).
 */
type Known = {
  target?: ReleaseTarget;
  estimate?: GasEstimate;
  waitMs?: number;
  /**
   * The settlement's transaction as its sender just left it (a batch: lib/settle/batch.ts),
   * with its receipt when it has one: not resumed or read again.
   */
  sent?: SentTransaction;
  /** Called once a fresh settlement's release is recorded, or failed to be (lib/settle/batch.ts). */
  onRecorded?: () => void;
};

/** A settlement's transaction as its sender just left it, with its receipt when it has one. */
export type SentTransaction = { tx: ChainTransaction; receipt?: TransactionReceipt };

async function progress(db: Db, start: Settlement, known: Known = {}): Promise<Settlement> {
  let s = start;
  if (s.status === "confirmed") return s;
  if (untouched(s)) return sendFresh(db, s, known);
  if (s.status === "pending" || s.status === "failed") {
    const finished = await finishFromEscrow(db, s);
    if (finished) return finished;
    await submitPayment(db, s);
    s = await reload(db, s.id);
  }
  if (s.relayTaskId && !s.chainTxId) return followRelayTask(db, s);
  if (!s.chainTxId) throw new Error(`settlement ${s.id} is ${s.status} without a transaction`);
  if (known.sent?.tx.id === s.chainTxId) return finishTransaction(db, s, known.sent.tx, known);
  const chainTx = await getChainTransaction(db, s.chainTxId);
  if (!chainTx) throw new Error(`settlement ${s.id} lost its transaction ${s.chainTxId}`);
  return finishTransaction(db, s, await resumeTransaction(db, chainTx, known.waitMs), known);
}

/**
 * Advances a settlement to `confirmed`. Its reputation record is queued, not written here
 * (lib/settle/reputation.ts): it is sent after the response, or by reconcile.
 * Throws settlement_in_progress when another caller holds it, chain_unavailable when the
 * chain fails (state kept; calling again resumes).
 */
export async function advanceSettlement(
  db: Db,
  settlementId: string,
  opts: {
    leaseHeld?: boolean;
    /** The row as this caller just created it (with the lease held), not read again. */
    created?: Settlement;
    /** Its deal and milestone, as the caller has them (ids and positions never change). */
    target?: ReleaseTarget;
    /** The release's gas, estimated while the settlement was being created. */
    estimate?: GasEstimate;
    /** How long to wait for the release's receipt (a request's budget); then stillPending. */
    waitMs?: number;
    /** Its transaction as a batch's sender just left it (lib/settle/batch.ts). */
    sent?: SentTransaction;
    /** The caller queues the reputation record itself (a batch: all of them at once). */
    deferReputation?: boolean;
    /** Called once a fresh settlement's release is recorded, or failed to be. */
    onRecorded?: () => void;
    /**
     * Called with the settlement when it was already confirmed before this call could do
     * anything (another caller paid it meanwhile); its result is thrown. A settle request
     * answers 409 already_settled then, as it does for a payment it finds confirmed up front.
     */
    alreadyConfirmed?: (s: Settlement) => Error;
  } = {},
): Promise<Settlement> {
  // A settlement created by this very call was inserted with its lease held, so nobody
  // (reconcile included) can start paying it between the insert and this point.
  const leased = opts.leaseHeld
    ? (opts.created ?? (await reload(db, settlementId)))
    : await takeSettlementLease(db, settlementId, leaseSeconds());
  if (!leased) {
    const current = await reload(db, settlementId);
    if (current.status === "confirmed") {
      if (opts.alreadyConfirmed) throw opts.alreadyConfirmed(current);
      return current;
    }
    throw new AppError("settlement_in_progress", "This milestone is being settled right now.", {
      details: { settlement: settlementJson(current) },
    });
  }
  let paid: Settlement | undefined;
  try {
    if (leased.status === "confirmed" && opts.alreadyConfirmed) {
      paid = leased;
      throw opts.alreadyConfirmed(leased);
    }
    paid = await progress(db, leased, opts);
    if (paid.status === "confirmed" && !paid.reputationTxHash && !opts.deferReputation)
      recordReputationAfterResponse(db, settlementId);
    return paid;
  } finally {
    // markPaid released it with the payment; any other outcome releases it here.
    if (paid?.leaseExpiresAt !== null)
      await releaseSettlementLease(db, settlementId, leased.leaseOwner).catch(() => {});
  }
}
