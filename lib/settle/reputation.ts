import { after } from "next/server";
import type { Db } from "@/db/client";
import {
  claimReputationQueue,
  releaseReputationLease,
  setReputationTxHash,
} from "@/db/queries/reputation";
import type { Settlement } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { recordReputation, recordReputations } from "@/lib/chain/reputation";
import { log } from "@/lib/log";

// After a settlement is paid, the registry records it for the creator's wallet. That record
// is not part of the payment: settle answers once the payment is confirmed, and the record
// is written from a durable queue — confirmed settlements whose reputation_tx_hash is still
// null (partial index settlements_reputation_queue_idx) — drained right after the response
// and by every reconcile run. The registry refuses a milestone twice, so retrying is safe.
// A drain leases the records it takes (REPUTATION_LEASE_MS): another drain — reconcile's, or
// another process's — skips them, so a record one drain carries in a batch is never sent
// alone by another meanwhile (which the registry would refuse as AlreadyRecorded, after a
// gas estimate, a signature and a nonce spent on it).

/**
 * How long a drain holds the records it took. Longer than a drain lasts (a batch's receipt
 * wait, then the leftovers one by one); a drain that fails gives its failed records back at
 * once, one that dies leaves them to a reconcile run after this.
 */
const REPUTATION_LEASE_MS = 10 * 60_000;

export async function recordSettlementReputation(db: Db, s: Settlement): Promise<void> {
  if (s.status !== "confirmed" || s.reputationTxHash) return;
  const recorded = await recordReputation(db, {
    wallet: s.recipient as `0x${string}`,
    scoreBps: s.scoreBps,
    milestoneId: s.milestoneId,
    amountUnits: s.amountUnits,
  });
  // "already_recorded" without a hash of ours stays null; the registry check is a cheap read.
  if (recorded.txHash) await setReputationTxHash(db, s.id, recorded.txHash);
}

export type ReputationDrainReport = { recorded: number; failed: number };

/**
 * Records the queued settlements in one batch; returns those left to record one by one: the
 * ones the batch (confirmed) did not write, or all of them when no batch could be sent. The
 * ones a batch in flight carries stay queued. A batch found in flight that carries none of
 * them (another drain's: one per registry at a time) is followed to its end, then they go
 * in a batch of their own.
 */
async function drainInBatch(
  db: Db,
  queued: Settlement[],
  report: ReputationDrainReport,
): Promise<Settlement[]> {
  let left = queued;
  for (let round = 0; round < 2 && left.length > 1; round++) {
    const sent = await batchOnce(db, left, report);
    if (sent.carriedOurs) return sent.left;
    left = sent.left;
  }
  return left;
}

async function batchOnce(
  db: Db,
  queued: Settlement[],
  report: ReputationDrainReport,
): Promise<{ left: Settlement[]; carriedOurs: boolean }> {
  let batch: Awaited<ReturnType<typeof recordReputations>>;
  try {
    batch = await recordReputations(
      db,
      queued.map((s) => ({
        wallet: s.recipient as `0x${string}`,
        scoreBps: s.scoreBps,
        milestoneId: s.milestoneId,
        amountUnits: s.amountUnits,
      })),
    );
  } catch (err) {
    log.warn("reputation batch not sent; recording one by one", { size: queued.length, err });
    return { left: queued, carriedOurs: true };
  }
  const { transaction: tx, written, carried } = batch;
  const left: Settlement[] = [];
  const recorded: string[] = [];
  for (const s of queued) {
    if (tx?.hash && written.has(s.milestoneId)) recorded.push(s.id);
    else if (
      !(tx?.status === "pending" || tx?.status === "submitted") ||
      !carried.has(s.milestoneId)
    )
      left.push(s);
  }
  // The batch's records, in one statement.
  if (tx?.hash) await setReputationTxHash(db, recorded, tx.hash);
  report.recorded += recorded.length;
  return { left, carriedOurs: queued.some((s) => carried.has(s.milestoneId)) };
}

/**
 * Writes the queued reputation records, oldest first, `limit` per run: several at once in
 * one recordSettlements batch (recordReputations; one batch in flight per registry), then
 * whatever the batch did not write — skipped as already recorded, or no batch could be sent —
 * one by one, a few at a time (the sender gives each its own nonce). Records carried by a
 * batch still in flight stay queued (and leased) for a later run. `settlementId` /
 * `settlementIds` / `dealId` narrow it to those settlements or one deal's. It takes only the
 * records no other drain holds, under a lease (claimReputationQueue): one another drain is
 * writing is neither batched nor sent alone here. A record that fails stays queued, its lease
 * given back.
 */
export async function drainReputationQueue(
  db: Db,
  opts: {
    settlementId?: string;
    settlementIds?: string[];
    dealId?: string;
    limit?: number;
    parallel?: number;
  } = {},
): Promise<ReputationDrainReport> {
  const claimed = await claimReputationQueue(db, {
    chainId: chainConfig().chainId,
    settlementId: opts.settlementId,
    settlementIds: opts.settlementIds,
    dealId: opts.dealId,
    limit: opts.limit ?? 100,
    ms: REPUTATION_LEASE_MS,
  });
  const report: ReputationDrainReport = { recorded: 0, failed: 0 };
  const queued = claimed.length > 1 ? await drainInBatch(db, claimed, report) : claimed;
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < queued.length; i = next++) {
      const s = queued[i] as Settlement;
      try {
        await recordSettlementReputation(db, s);
        report.recorded++;
      } catch (err) {
        report.failed++;
        failed.push(s.id);
        log.warn("reputation not recorded yet; the next drain retries", {
          settlementId: s.id,
          err,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.parallel ?? 4) }, worker));
  // The failed ones go back to the queue for the next drain. (Those a batch in flight
  // carries stay leased: it is still writing them.)
  const lease = claimed[0]?.reputationLeaseUntil;
  if (failed.length && lease)
    await releaseReputationLease(db, failed, lease).catch((err) =>
      log.warn("reputation leases not given back; they end by themselves", { err }),
    );
  return report;
}

/**
 * Records just-paid settlements' reputation after the response has been sent, when called
 * while serving a request (otherwise — a script, a test calling the library — it is left to
 * the queue, which reconcile drains), through drainTogether.
 */
export function recordReputationAfterResponse(db: Db, settlementIds: string | string[]): void {
  const ids = typeof settlementIds === "string" ? [settlementIds] : settlementIds;
  if (ids.length === 0) return;
  try {
    after(() => drainTogether(db, ids));
  } catch {
    // Outside a request scope: reconcile drains the queue.
  }
}

/** At most this many settlements per drain (the registry takes up to 200 per batch). */
const DRAIN_TOGETHER_MAX = 100;

/**
 * How long a drain gathers before it starts, from the first settlement that joined it. A
 * drain costs about the same for one record as for a hundred (a gas estimate, a signature, a
 * send, a receipt wait, a few statements): waiting lets concurrent and back-to-back settles —
 * at a concurrency of one too — share one recordSettlements transaction. Records are not
 * money and may lag. But after() keeps the function alive meanwhile, which a serverless host
 * bills: keep it small.
 */
const REPUTATION_GATHER_MS = 200;

type Gathered = { ids: string[]; since: number; drained: Promise<void>; resolve: () => void };
type Drains = { running: boolean; timer?: ReturnType<typeof setTimeout>; next: Gathered[] };
const drains = new WeakMap<Db, Drains>();

/**
 * Drains these settlements' records together with the others this process paid meanwhile:
 * a drain starts REPUTATION_GATHER_MS after the first of its settlements joined it (at once
 * when DRAIN_TOGETHER_MAX joined), and only once the previous drain finished — one at a time
 * per process, so the settlements paid while one runs go together in the next, in one
 * recordSettlements batch. Resolves once a drain that included them has finished (a record
 * that failed stays queued for reconcile). The after() work of recordReputationAfterResponse.
 */
export function drainTogether(db: Db, ids: string[]): Promise<void> {
  let state = drains.get(db);
  if (!state) {
    state = { running: false, next: [] };
    drains.set(db, state);
  }
  const waits: Array<Promise<void>> = [];
  for (const id of ids) {
    let last = state.next.at(-1);
    if (!last || last.ids.length >= DRAIN_TOGETHER_MAX) {
      let resolve = () => {};
      const drained = new Promise<void>((r) => {
        resolve = r;
      });
      last = { ids: [], since: Date.now(), drained, resolve };
      state.next.push(last);
    }
    last.ids.push(id);
    if (!waits.includes(last.drained)) waits.push(last.drained);
  }
  runDrains(db, state);
  return Promise.all(waits).then(() => undefined);
}

function runDrains(db: Db, state: Drains): void {
  const first = state.next[0];
  if (state.running || !first) return;
  const wait =
    first.ids.length >= DRAIN_TOGETHER_MAX ? 0 : first.since + REPUTATION_GATHER_MS - Date.now();
  if (wait > 0) {
    state.timer ??= setTimeout(() => {
      state.timer = undefined;
      runDrains(db, state);
    }, wait);
    return;
  }
  clearTimeout(state.timer);
  state.timer = undefined;
  state.next.shift();
  state.running = true;
  const only = { settlementIds: first.ids, limit: first.ids.length };
  drainReputationQueue(db, only)
    .then(
      () => undefined,
      (err: unknown) => log.warn("reputation drain failed", { ...only, err }),
    )
    .finally(() => {
      first.resolve();
      state.running = false;
      runDrains(db, state);
    });
}
