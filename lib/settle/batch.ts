import { AsyncLocalStorage } from "node:async_hooks";
import type { TransactionReceipt } from "viem";
import type { Db } from "@/db/client";
import { findSettlement, renewBatchLeases } from "@/db/queries/settlements";
import type { ChainTransaction, Settlement } from "@/db/schema";
import { broadcastAndAwait, type GasEstimate, recordReceipt } from "@/lib/chain/sender";
import { settlementJson } from "@/lib/deals/serialize";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import {
  advanceSettlement,
  leaseSeconds,
  markBatchPaid,
  pendingError,
  type SentTransaction,
} from "@/lib/settle/advance";
import { type ReleaseTarget, submitReleaseBatch } from "@/lib/settle/payment";
import { recordReputationAfterResponse } from "@/lib/settle/reputation";

// Many releases in one transaction (the escrow's releaseBatch). A bulk settle claims its
// milestones as the single form does — each settlement created once, leased to this call —
// and, instead of one transaction each, queues the fresh direct ones here: they go out in one
// releaseBatch transaction (several when there are more than RELEASES_PER_TX), recorded and
// linked to every settlement in one database transaction before anything is broadcast.
// Then each settlement is finished as any other (advanceSettlement with the batch's outcome
// in hand): its Released event's log index is recorded; an item the escrow skipped, or every
// item of a batch that reverted, is looked up in the escrow and, still locked, sent again on
// its own; a batch unconfirmed within the budget is left `submitted` for reconcile, which
// finishes it like any release (re-broadcast of the same bytes, a reorg sent again).

/**
 * Releases per transaction. Measured: up to about 115k gas each when every item is another
 * deal paying a new creator (test/contracts/escrow-batch-gas.test.ts), so 50 sign for at most
 * about 7M gas with the sender's margin — well inside a Base block and EIP-7825's 2^24 cap
 * per transaction (the escrow takes up to MAX_BATCH = 100).
 */
export const RELEASES_PER_TX = 50;

/**
 * A settlement this caller has just claimed (lease held), and its deal and milestone.
 * A single settle's (ReleaseGroups) also carries its own request's chain budget (`waitUntil`),
 * its release's gas estimated while it was claimed (`estimate`: used when it goes alone), and
 * `inScope`, which runs its own work in its request's async context (logs, traces, after()).
 */
export type Claimed = {
  settlement: Settlement;
  target: ReleaseTarget;
  waitUntil?: number;
  estimate?: GasEstimate;
  inScope?: <R>(fn: () => R) => R;
};

type BatchOptions = {
  /**
   * Called once the batch's transaction is recorded (its nonce taken), or once it is known
   * none will be: the releases that queue behind it may be recorded from then on.
   */
  onRecorded?: () => void;
  /**
   * Each caller queues its own settlement's reputation record, in its own request
   * (ReleaseGroups: the items are different requests'); by default payBatch queues them all.
   */
  ownReputation?: boolean;
  /**
   * The items were claimed just now and their leases cannot have run out: they are not
   * renewed before the batch (recording it still checks them).
   */
  fresh?: boolean;
};

/**
 * Sends these claimed settlements' releases in one releaseBatch transaction and finishes each
 * one as advanceSettlement does. One promise per item, in order: the paid settlement, or what
 * advanceSettlement throws (stillPending past its budget, a refusal…).
 */
export async function payBatch(
  db: Db,
  items: Claimed[],
  waitUntil: number,
  opts: BatchOptions = {},
): Promise<Array<Promise<Settlement>>> {
  let recordedOnce = false;
  const recorded = () => {
    if (recordedOnce) return;
    recordedOnce = true;
    opts.onRecorded?.();
  };
  const send = () =>
    items.length === 1
      ? finishEach(db, items, waitUntil, opts, recorded)
      : sendBatch(db, items, waitUntil, opts, recorded);
  if (opts.fresh) return send();
  // The first items of a bulk were claimed while the rest were being verified, and a single
  // settle's may have waited behind other releases: either can outlast a lease. Only the
  // settlements this call still holds are sent (their leases renewed for it); one taken over
  // meanwhile — reconcile or a single settle may have paid it — is that holder's, and this
  // item answers as a concurrent settle would.
  return keepHeld(db, items, (kept) => {
    if (kept.length === items.length) return send();
    if (kept.length)
      return payBatch(db, kept, waitUntil, { ...opts, onRecorded: recorded, fresh: true });
    recorded();
    return [];
  });
}

/**
 * Renews the items' leases; `then` gets those still held (all of them, usually) and answers
 * for them, in order; an item no longer held answers settlement_in_progress.
 */
async function keepHeld(
  db: Db,
  items: Claimed[],
  then: (kept: Claimed[]) => Promise<Array<Promise<Settlement>>> | Array<Promise<Settlement>>,
): Promise<Array<Promise<Settlement>>> {
  const held = await renewBatchLeases(
    db,
    items.map(({ settlement: s }) => ({ id: s.id, owner: s.leaseOwner })),
    leaseSeconds(),
  );
  const kept = items.filter(({ settlement: s }) => held.has(s.id));
  const paying = await then(kept);
  let k = 0;
  return items.map(({ settlement: s }) =>
    held.has(s.id)
      ? (paying[k++] as Promise<Settlement>)
      : Promise.reject(
          new AppError("settlement_in_progress", "This milestone is being settled right now.", {
            details: { settlement: settlementJson(s) },
          }),
        ),
  );
}

/**
 * Each settlement finished as advanceSettlement does (linked to `linked` when it is), in its
 * own request's async context; the reputation records of those paid are queued together,
 * after the response: one batch (unless each caller queues its own).
 */
function finishEach(
  db: Db,
  items: Claimed[],
  waitUntil: number,
  opts: BatchOptions,
  recorded: () => void,
  linked?: ChainTransaction,
  sent?: SentTransaction,
): Array<Promise<Settlement>> {
  // A confirmed batch's payments are recorded together, in one database transaction; an
  // item its receipt does not pay (or all, should that fail) goes on as any settlement.
  const together =
    linked && sent?.receipt && items.length > 1
      ? markBatchPaid(db, items, sent)
      : Promise.resolve(items.map(() => null));
  const each = items.map(({ settlement, target, inScope = (fn) => fn(), ...own }, i) =>
    together.then((paid) =>
      inScope(
        () =>
          paid[i] ??
          advanceSettlement(db, settlement.id, {
            leaseHeld: true,
            created: linked
              ? { ...settlement, chainTxId: linked.id, txHash: linked.hash, status: "submitted" }
              : settlement,
            target,
            waitMs: Math.max(0, (own.waitUntil ?? waitUntil) - Date.now()),
            sent,
            deferReputation: true,
            estimate: items.length === 1 ? own.estimate : undefined,
            onRecorded: items.length === 1 ? recorded : undefined,
          }),
      ),
    ),
  );
  // Several sent one by one, each by its own advanceSettlement: nothing to wait for.
  if (items.length > 1 || linked) recorded();
  if (!opts.ownReputation)
    void Promise.allSettled(each).then((outcomes) =>
      recordReputationAfterResponse(
        db,
        outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.id] : [])),
      ),
    );
  return each;
}

/** payBatch's send: one releaseBatch recorded, broadcast and awaited, then each item finished. */
async function sendBatch(
  db: Db,
  items: Claimed[],
  waitUntil: number,
  opts: BatchOptions,
  onRecorded: () => void,
): Promise<Array<Promise<Settlement>>> {
  const finish = (linked?: ChainTransaction, sent?: SentTransaction) =>
    finishEach(db, items, waitUntil, opts, onRecorded, linked, sent);
  let recorded: ChainTransaction;
  try {
    recorded = await submitReleaseBatch(db, items, leaseSeconds());
  } catch (err) {
    // Nothing recorded (the node did not answer, the batch would revert as a whole, a lease
    // was lost): each settlement still held goes its own way, exactly as a single settle
    // would send it.
    log.warn("a release batch was not recorded; releasing its settlements one by one", {
      size: items.length,
      err,
    });
    onRecorded();
    return keepHeld(db, items, (kept) =>
      kept.length ? finishEach(db, kept, waitUntil, opts, onRecorded) : [],
    ).catch(() => finish());
  }
  onRecorded();
  let receipt: TransactionReceipt | undefined;
  try {
    const tx = await broadcastAndAwait(db, recorded, Math.max(0, waitUntil - Date.now()), (r) => {
      receipt = r;
      return recordReceipt(db, recorded.id, r);
    });
    return finish(recorded, { tx, receipt });
  } catch (err) {
    // Recorded and linked, then refused or the node gone: each settlement is resumed from
    // the transaction, as reconcile would (a refused batch is split into single releases).
    log.warn("a release batch was recorded but not confirmed; resuming its settlements", {
      id: recorded.id,
      err,
    });
    return finish(recorded);
  }
}

/**
 * Collects the claimed settlements of one bulk settle and sends them in batches: a batch goes
 * out once RELEASES_PER_TX are queued, and the rest once every item of the bulk has either
 * queued its settlement or finished without one (`leave`), so a batch never waits on an item
 * that will not come.
 */
export class ReleaseQueue {
  private queued: Array<{
    item: Claimed;
    resolve: (s: Settlement) => void;
    reject: (e: unknown) => void;
  }> = [];

  /** `expected`: how many items may still queue; `waitUntil`: the bulk's chain budget. */
  constructor(
    private readonly db: Db,
    private expected: number,
    private readonly waitUntil: number,
  ) {}

  /** Queues a claimed settlement; resolves to it paid (or rejects as advanceSettlement would). */
  add(item: Claimed): Promise<Settlement> {
    const paid = new Promise<Settlement>((resolve, reject) =>
      this.queued.push({ item, resolve, reject }),
    );
    this.expected--;
    if (this.queued.length >= RELEASES_PER_TX || this.expected === 0) this.flush();
    return paid;
  }

  /** An item that finished without queuing a settlement. */
  leave(): void {
    this.expected--;
    if (this.expected === 0) this.flush();
  }

  private flush(): void {
    const taken = this.queued.splice(0);
    if (taken.length === 0) return;
    void answerEach(
      taken,
      payBatch(
        this.db,
        taken.map((q) => q.item),
        this.waitUntil,
      ),
    );
  }
}

/**
 * Each queued settle gets its own item's outcome from a payBatch, or payBatch's own failure;
 * resolves once every one of them has its answer.
 */
function answerEach(
  queued: ReadonlyArray<{ resolve: (s: Settlement) => void; reject: (e: unknown) => void }>,
  paying: Promise<Array<Promise<Settlement>>>,
): Promise<unknown> {
  return paying.then(
    (results) => {
      results.forEach((r, i) => {
        const q = queued[i];
        if (q) r.then(q.resolve, q.reject);
      });
      return Promise.allSettled(results);
    },
    (err) => {
      for (const q of queued) q.reject(err);
    },
  );
}

/**
 * Concurrent single settles of one process, paid together (group commit). A settle whose
 * release finds none being recorded sends its own at once, exactly as it would alone (its
 * gas estimated while it was claimed); the ones claimed while a release is being recorded —
 * usually a few milliseconds: its nonce, signature and row — wait for that and then go out
 * together, in one releaseBatch of up to RELEASES_PER_TX. So one settle at a time costs what
 * it always did, and many at once share a transaction, a nonce, a gas estimate, a receipt and
 * the bookkeeping's database transaction instead of queueing for the signer one by one.
 * - Each keeps its own outcome: the escrow skips an item it would refuse without reverting
 *   the others, and a batch that fails as a whole is split into single releases (payBatch).
 * - A release held up at the node does not hold the queue: past GROUP_WAIT_MS, the waiting
 *   settles go out as a group of their own.
 * - Settles that waited have their leases renewed before they are sent (one that reconcile
 *   took over meanwhile answers settlement_in_progress and is not sent again).
 * - Each answers within its own request's budget (a group waits for its receipt until the
 *   latest of them; an earlier one answers `submitted` at its own), and its work runs in its
 *   own request's async context.
 */
class ReleaseGroups {
  private queued: Array<{
    item: Claimed & { waitUntil: number };
    /** Queued behind another release: its lease is renewed before it is sent. */
    waited: boolean;
    resolve: (s: Settlement) => void;
    reject: (e: unknown) => void;
  }> = [];
  /** Groups whose transaction is being recorded. */
  private recording = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly db: Db) {}

  /** Whether a settle claimed now would most likely be grouped with others (releasesBusy). */
  busy(): boolean {
    return this.recording > 0 || this.queued.length > 0;
  }

  add(item: Claimed & { waitUntil: number }): Promise<Settlement> {
    const inScope = AsyncLocalStorage.snapshot();
    const paid = new Promise<Settlement>((resolve, reject) =>
      this.queued.push({
        item: { ...item, inScope },
        waited: this.recording > 0,
        resolve,
        reject,
      }),
    );
    this.flush();
    return paid;
  }

  /** Sends the queue's first RELEASES_PER_TX as a group, when none is recording (or `now`). */
  private flush(now = false): void {
    if (this.recording > 0 && !now) {
      this.arm();
      return;
    }
    const taken = this.queued.splice(0, RELEASES_PER_TX);
    if (taken.length === 0) return;
    this.recording++;
    // The group waits for its receipt within the latest budget among its settles; one whose
    // budget ends well before that answers at its own (answerByBudget).
    const until = Math.max(...taken.map((q) => q.item.waitUntil));
    for (const q of taken)
      if (q.item.waitUntil < until - BUDGET_SLACK_MS) answerByBudget(this.db, q.item, q);
    let done = false;
    const next = () => {
      if (done) return;
      done = true;
      this.recording--;
      this.flush();
    };
    void answerEach(
      taken,
      payBatch(
        this.db,
        taken.map((q) => q.item),
        until,
        { onRecorded: next, fresh: !taken.some((q) => q.waited), ownReputation: true },
      ),
    ).then(next);
    this.arm();
  }

  /** While settles are queued, the queue is sent within GROUP_WAIT_MS whatever is recording. */
  private arm(): void {
    if (this.timer || this.queued.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush(true);
    }, GROUP_WAIT_MS);
    this.timer.unref?.();
  }
}

/**
 * How long a settle waits behind a release being recorded before its group goes out anyway:
 * recording takes milliseconds, unless the node is slow to answer (an estimate or the fees).
 */
const GROUP_WAIT_MS = 250;

/** How much earlier than its group's a settle's budget must end to be answered on its own. */
const BUDGET_SLACK_MS = 1_000;

/**
 * A grouped settle's answer by its own budget, when its group waits longer (for a later
 * request): once `waitUntil` passes with its release sent but unconfirmed, it answers as
 * stillPending would — `submitted` — and its group, which keeps its lease, or reconcile
 * finishes it. Before its release is recorded it has nothing to answer `submitted` with, and
 * waits on (recording takes milliseconds).
 */
function answerByBudget(
  db: Db,
  { settlement: s, waitUntil }: { settlement: Settlement; waitUntil: number },
  q: { resolve: (s: Settlement) => void; reject: (e: unknown) => void },
): void {
  let answered = false;
  const { resolve, reject } = q;
  q.resolve = (v) => {
    answered = true;
    resolve(v);
  };
  q.reject = (e) => {
    answered = true;
    reject(e);
  };
  const check = () => {
    if (answered) return;
    findSettlement(db, s.id).then(
      (row) => {
        if (answered) return;
        if (row?.status === "submitted") q.reject(pendingError(row));
        else setTimeout(check, 100).unref?.();
      },
      () => {
        if (!answered) setTimeout(check, 100).unref?.();
      },
    );
  };
  setTimeout(check, Math.max(0, waitUntil - Date.now())).unref?.();
}

const groups = new WeakMap<Db, ReleaseGroups>();

/**
 * Whether this process is recording a single settle's release, or has some queued behind one:
 * a settle claimed now would most likely be queued and go out in a group, whose batch is
 * estimated as a whole, so estimating its own release's gas ahead (settle.ts) would be a node
 * call spent for nothing — at c=20 in automine, about nine settles in ten went out grouped.
 * A group only waiting for its receipt does not count: a settle claimed then goes alone, and
 * without its estimate ahead it would wait for one in series (a node round trip, on a chain
 * with block times nearly every settle's). One that goes alone after all is estimated by the
 * sender as it is recorded.
 */
export function releasesBusy(db: Db): boolean {
  return groups.get(db)?.busy() ?? false;
}

/**
 * Pays a direct settlement a single settle has just claimed (lease held), grouped with the
 * others this process is settling at the same moment (ReleaseGroups). Resolves to it paid, or
 * rejects as advanceSettlement would (stillPending past `waitUntil`, a refusal…). Its
 * reputation record is the caller's to queue (recordReputationAfterResponse), in its own
 * request: the group's work runs in whichever request started it.
 */
export function payClaimed(
  db: Db,
  claimed: Claimed,
  opts: { waitUntil: number; estimate?: GasEstimate },
): Promise<Settlement> {
  let group = groups.get(db);
  if (!group) {
    group = new ReleaseGroups(db);
    groups.set(db, group);
  }
  return group.add({ ...claimed, ...opts });
}
