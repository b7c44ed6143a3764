import { after } from "next/server";
import type { Db } from "@/db/client";
import { listReputationQueue, setReputationTxHash } from "@/db/queries/reputation";
import type { Settlement } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { recordReputation } from "@/lib/chain/reputation";
import { log } from "@/lib/log";

// After a settlement is paid, the registry records it for the creator's wallet. That record
// is not part of the payment: settle answers once the payment is confirmed, and the record
// is written from a durable queue — confirmed settlements whose reputation_tx_hash is still
// null (partial index settlements_reputation_queue_idx) — drained right after the response
// and by every reconcile run. The registry refuses a milestone twice, so retrying is safe.

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
 * Writes the queued reputation records, oldest first, `limit` per run, a few at a time
 * (the sender gives each its own nonce). `settlementId` / `dealId` narrow it to one
 * settlement or one deal's. A record that fails stays queued for the next run.
 */
export async function drainReputationQueue(
  db: Db,
  opts: { settlementId?: string; dealId?: string; limit?: number; parallel?: number } = {},
): Promise<ReputationDrainReport> {
  const queued = await listReputationQueue(db, {
    chainId: chainConfig().chainId,
    settlementId: opts.settlementId,
    dealId: opts.dealId,
    limit: opts.limit ?? 100,
  });
  const report: ReputationDrainReport = { recorded: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < queued.length; i = next++) {
      const s = queued[i] as Settlement;
      try {
        await recordSettlementReputation(db, s);
        report.recorded++;
      } catch (err) {
        report.failed++;
        log.warn("reputation not recorded yet; the next drain retries", {
          settlementId: s.id,
          err,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.parallel ?? 4) }, worker));
  return report;
}

/**
 * Records a just-paid settlement's reputation after the response has been sent, when
 * called while serving a request; otherwise (a script, a test calling the library) it is
 * left to the queue, which reconcile drains.
 */
export function recordReputationAfterResponse(db: Db, settlementId: string): void {
  try {
    after(() =>
      drainReputationQueue(db, { settlementId }).then(
        () => undefined,
        (err: unknown) => log.warn("reputation drain failed", { settlementId, err }),
      ),
    );
  } catch {
    // Outside a request scope: reconcile drains the queue.
  }
}
