import type { TransactionReceipt } from "viem";
import type { Db } from "@/db/client";
import { renewBatchLeases } from "@/db/queries/settlements";
import type { ChainTransaction, Settlement } from "@/db/schema";
import { broadcastAndAwait, recordReceipt } from "@/lib/chain/sender";
import { settlementJson } from "@/lib/deals/serialize";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { advanceSettlement, leaseSeconds, type SentTransaction } from "@/lib/settle/advance";
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

/** A settlement this caller has just claimed (lease held), and its deal and milestone. */
export type Claimed = { settlement: Settlement; target: ReleaseTarget };

/**
 * Sends these claimed settlements' releases in one releaseBatch transaction and finishes each
 * one as advanceSettlement does. One promise per item, in order: the paid settlement, or what
 * advanceSettlement throws (stillPending past `waitUntil`, a refusal…).
 */
export async function payBatch(
  db: Db,
  items: Claimed[],
  waitUntil: number,
): Promise<Array<Promise<Settlement>>> {
  /**
   * Each settlement finished as advanceSettlement does (linked to `linked` when it is); the
   * reputation records of those paid are queued together, after the response: one batch.
   */
  const finishEach = (linked?: ChainTransaction, sent?: SentTransaction) => {
    const each = items.map(({ settlement, target }) =>
      advanceSettlement(db, settlement.id, {
        leaseHeld: true,
        created: linked
          ? { ...settlement, chainTxId: linked.id, txHash: linked.hash, status: "submitted" }
          : settlement,
        target,
        waitMs: Math.max(0, waitUntil - Date.now()),
        sent,
        deferReputation: true,
      }),
    );
    void Promise.allSettled(each).then((outcomes) =>
      recordReputationAfterResponse(
        db,
        outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.id] : [])),
      ),
    );
    return each;
  };
  if (items.length === 1) return finishEach();
  // The first items of a bulk were claimed while the rest were being verified, which can
  // outlast a lease: only the settlements this call still holds go into the batch (their
  // leases renewed for it); one taken over meanwhile — reconcile or a single settle may have
  // paid it — is that holder's, and this item answers as a concurrent settle would.
  const held = await renewBatchLeases(
    db,
    items.map(({ settlement: s }) => ({ id: s.id, owner: s.leaseOwner })),
    leaseSeconds(),
  );
  if (held.size < items.length) {
    const kept = items.filter(({ settlement: s }) => held.has(s.id));
    const paying = kept.length ? await payBatch(db, kept, waitUntil) : [];
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
  let recorded: ChainTransaction;
  try {
    recorded = await submitReleaseBatch(db, items, leaseSeconds());
  } catch (err) {
    // Nothing recorded (the node did not answer, the batch would revert as a whole): each
    // settlement goes its own way, exactly as a single settle would send it.
    log.warn("a release batch was not recorded; releasing its settlements one by one", {
      size: items.length,
      err,
    });
    return finishEach();
  }
  let receipt: TransactionReceipt | undefined;
  try {
    const tx = await broadcastAndAwait(db, recorded, Math.max(0, waitUntil - Date.now()), (r) => {
      receipt = r;
      return recordReceipt(db, recorded.id, r);
    });
    return finishEach(recorded, { tx, receipt });
  } catch (err) {
    // Recorded and linked, then refused or the node gone: each settlement is resumed from
    // the transaction, as reconcile would (a refused batch is split into single releases).
    log.warn("a release batch was recorded but not confirmed; resuming its settlements", {
      id: recorded.id,
      err,
    });
    return finishEach(recorded);
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
    payBatch(
      this.db,
      taken.map((q) => q.item),
      this.waitUntil,
    ).then(
      (results) =>
        results.forEach((r, i) => {
          const q = taken[i];
          if (q) r.then(q.resolve, q.reject);
        }),
      (err) => {
        for (const q of taken) q.reject(err);
      },
    );
  }
}
