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
 * the queue, which reconcile drains). The drains of one process run one at a time: the
 * settlements paid while one runs are recorded together by the next (drainTogether), so
 * concurrent settles share a recordSettlements batch instead of each finding the registry's
 * one batch in flight taken and recording its own alone.
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

type Gathered = { ids: string[]; drained: Promise<void>; resolve: () => void };
const drains = new WeakMap<Db, { running: boolean; next: Gathered[] }>();

/**
 * Drains these settlements' records with the others gathered while this process's previous
 * drain ran; resolves once a drain that included them has finished (a record that failed
 * stays queued for reconcile).
 */
function drainTogether(db: Db, ids: string[]): Promise<void> {
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
      last = { ids: [], drained, resolve };
      state.next.push(last);
    }
    last.ids.push(id);
    if (!waits.includes(last.drained)) waits.push(last.drained);
  }
  runDrains(db, state);
  return Promise.all(waits).then(() => undefined);
}

function runDrains(db: Db, state: { running: boolean; next: Gathered[] }): void {
  const gathered = state.running ? undefined : state.next.shift();
  if (!gathered) return;
  state.running = true;
  const only = { settlementIds: gathered.ids, limit: gathered.ids.length };
  drainReputationQueue(db, only)
    .then(
      () => undefined,
      (err: unknown) => log.warn("reputation drain failed", { ...only, err }),
    )
    .finally(() => {
      gathered.resolve();
      state.running = false;
      runDrains(db, state);
    });
}
