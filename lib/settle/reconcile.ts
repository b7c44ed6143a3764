import { z } from "zod";
import type { Db } from "@/db/client";
import { touchDeal } from "@/db/queries/escrow";
import { deleteExpiredIdempotencyKeys } from "@/db/queries/idempotency-keys";
import { listOpenSettlements, listUnsettledInFlightTransactions } from "@/db/queries/reconcile";
import type { ChainTransaction } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import {
  fillGapsBelow,
  fillServiceNonceGaps,
  getChainTransaction,
  resumeTransaction,
} from "@/lib/chain/sender";
import { AppError } from "@/lib/errors";
import { chainNow } from "@/lib/escrow/chain";
import {
  assignCreatorOnChain,
  dealsToWatch,
  recheckAssignment,
  refundableAt,
  refundExpired,
  syncFunding,
  syncRefunds,
} from "@/lib/escrow/deals";
import { watchDeposits } from "@/lib/escrow/deposit";
import { drainOutbox } from "@/lib/events/outbox";
import { log } from "@/lib/log";
import { advanceSettlement } from "@/lib/settle/advance";
import { payBonus } from "@/lib/settle/bonuses";
import { drainReputationQueue } from "@/lib/settle/reputation";
import { checkTimers } from "@/lib/settle/timers";

// Finishes work a request left behind (a crash, an RPC outage, a receipt timeout):
// settlements left `pending` or `submitted` are advanced exactly as a new settle call
// would (confirm from the receipt, or re-broadcast the same signed bytes — never a new
// payment), paid settlements get their reputation record, and any other transaction of
// ours still in flight (faucet drips, attestations) is resumed.

const drained = z.object({
  retrying: z.number().int(),
  failed: z.number().int(),
});
export const reconcileResponse = z.object({
  settlements: z.object({
    confirmed: z.number().int(),
    stillPending: z.number().int(),
    busy: z.number().int(),
    failed: z.number().int(),
  }),
  reputations: z.number().int(),
  escrow: z.object({
    funded: z.number().int(),
    assigned: z.number().int(),
    closed: z.number().int(),
    failed: z.number().int(),
    bonusesPaid: z.number().int().describe("Funded bonuses paid by this run"),
  }),
  transactions: z.object({
    confirmed: z.number().int(),
    failed: z.number().int(),
    stillPending: z.number().int(),
  }),
  outbox: z
    .object({
      webhooks: drained.extend({ delivered: z.number().int() }),
      emails: drained.extend({ sent: z.number().int() }),
    })
    .optional(),
  timers: z
    .object({ reviewWindowsElapsed: z.number().int(), overdue: z.number().int() })
    .optional(),
  expiredIdempotencyKeys: z
    .number()
    .int()
    .optional()
    .describe("Idempotency keys past their 24 hours, deleted; full runs only"),
  deposits: z
    .object({
      received: z.number().int(),
      swept: z.number().int(),
      returned: z.number().int(),
      failed: z.number().int(),
    })
    .optional(),
});
export type ReconcileReport = z.infer<typeof reconcileResponse>;

/**
 * `settlementId`: finish just that settlement (an operator's targeted run); `dealId`: just
 * that deal's settlements and escrow state; `transactionId`: just that transaction of ours
 * (a faucet drip, a relayed funding…). A targeted run first fills the unused nonces below
 * its own transactions (a full run fills every signer's): they would hold them back.
 */
export async function reconcile(
  db: Db,
  only: { settlementId?: string; dealId?: string; transactionId?: string } = {},
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    settlements: { confirmed: 0, stillPending: 0, busy: 0, failed: 0 },
    reputations: 0,
    escrow: { funded: 0, assigned: 0, closed: 0, failed: 0, bonusesPaid: 0 },
    transactions: { confirmed: 0, failed: 0, stillPending: 0 },
  };
  const chainId = chainConfig().chainId;
  if (only.transactionId) {
    const t = await getChainTransaction(db, only.transactionId);
    if (t) await finishLeftovers(db, report, [t], { targeted: true });
    return report;
  }

  const open = await listOpenSettlements(db, {
    chainId,
    settlementId: only.settlementId,
    dealId: only.dealId,
  });
  const targeted = Boolean(only.settlementId || only.dealId);
  for (const s of open) {
    try {
      if (targeted && s.chainTxId)
        await fillGapsBehind(db, await getChainTransaction(db, s.chainTxId));
      const done = await advanceSettlement(db, s.id);
      if (done.status === "confirmed") report.settlements.confirmed++;
      else report.settlements.stillPending++;
    } catch (err) {
      if (err instanceof AppError && err.code === "settlement_in_progress")
        report.settlements.busy++;
      else if (err instanceof AppError && err.code === "chain_unavailable")
        report.settlements.stillPending++;
      else {
        report.settlements.failed++;
        log.error("reconcile: settlement could not be advanced", { settlementId: s.id, err });
      }
    }
  }

  // The reputation queue: confirmed settlements not yet recorded on the registry.
  report.reputations = (await drainReputationQueue(db, only)).recorded;
  if (only.settlementId) return report;
  if (only.dealId) {
    await watchEscrow(db, report, only.dealId);
    return report;
  }

  await watchEscrow(db, report);
  report.timers = await checkTimers(db).catch((err) => {
    log.error("reconcile: deal timers not checked", { err });
    return { reviewWindowsElapsed: 0, overdue: 0 };
  });
  report.expiredIdempotencyKeys = await deleteExpiredIdempotencyKeys(db).catch((err) => {
    log.error("reconcile: expired idempotency keys not deleted", { err });
    return 0;
  });

  // Whatever is still in flight and belongs to no settlement (those were handled above).
  await finishLeftovers(db, report, await listUnsettledInFlightTransactions(db, chainId));
  report.outbox = await drainOutbox(db);
  return report;
}

/**
 * Transactions of ours still in flight that no settlement finishes (faucet drips, relayed
 * fundings, attestations, no-op fills), resumed: the same signed bytes, never a new send.
 */
async function finishLeftovers(
  db: Db,
  report: ReconcileReport,
  leftovers: ChainTransaction[],
  opts: { targeted?: boolean } = {},
): Promise<void> {
  // Nonces allocated by a process that died before recording them: filled with no-ops, or
  // every later transaction of that signer would wait behind them (resumed just below).
  if (!opts.targeted)
    await fillServiceNonceGaps(db).catch((err) =>
      log.warn("reconcile: unused nonces not looked for", { err }),
    );
  for (const t of leftovers) {
    if (opts.targeted) await fillGapsBehind(db, t);
    if (t.status !== "pending" && t.status !== "submitted") continue;
    try {
      const done = await resumeTransaction(db, t);
      if (done.status === "confirmed") report.transactions.confirmed++;
      else if (done.status === "failed") report.transactions.failed++;
      else report.transactions.stillPending++;
    } catch (err) {
      report.transactions.stillPending++;
      log.warn("reconcile: transaction not finished", { id: t.id, purpose: t.purpose, err });
    }
  }
}

/** A targeted run's gap filling: the unused nonces below one unfinished transaction of ours. */
async function fillGapsBehind(db: Db, t: ChainTransaction | null): Promise<void> {
  if (!t || (t.status !== "pending" && t.status !== "submitted")) return;
  await fillGapsBelow(db, t).catch((err) =>
    log.warn("reconcile: unused nonces not looked for", { id: t.id, err }),
  );
}

/**
 * The escrow watcher: deposit addresses are read (recorded, swept into the escrow or
 * returned), fundings nobody reported open their deals, assignments left half-done
 * are finished (and those a reorg removed sent again), cancels made from the brand's wallet close their deals, and milestones
 * still locked past deadline + grace go back to the brand.
 */
async function watchEscrow(db: Db, report: ReconcileReport, dealId?: string): Promise<void> {
  if (!chainConfig().escrow) return;
  const now = await chainNow().catch(() => null);
  if (now === null) return; // chain down: next run
  // Deposit addresses first: a full one is swept and opens its deal before the deals below.
  report.deposits = await watchDeposits(db, { dealId });
  for (const deal of await dealsToWatch(db, { dealId })) {
    try {
      // Looked at now: the next run starts with the deals looked at longest ago.
      await touchDeal(db, deal.id);
      // Unfunded, or cancelled before any funding was seen: the escrow may hold money the
      // app does not show (a wallet's funding that landed after the cancel, a relayed one
      // whose request died). Read under the brand wallet's key, it opens the deal again.
      if (deal.status === "unfunded" || deal.status === "cancelled") {
        const check = await syncFunding(db, deal);
        if (check.status === "funded") report.escrow.funded++;
        continue;
      }
      let current = deal;
      if (current.creatorId && !current.assignedAt) {
        current = await assignCreatorOnChain(db, current);
        report.escrow.assigned++;
      } else if (current.assignedAt) {
        // Still on the chain? A reorg may have removed it (final at once at depth 0).
        const checked = await recheckAssignment(db, current);
        current = checked.deal;
        if (checked.reassigned) report.escrow.assigned++;
      }
      // A funded bonus (lib/settle/bonuses.ts) whose release nobody finished: paid now, on
      // the same settlement path (a settlement already under way was advanced above).
      if (current.parentDealId && current.fundedAt && now <= refundableAt(current)) {
        const bonus = await payBonus(db, current);
        if (bonus.status === "paid") report.escrow.bonusesPaid++;
        continue;
      }
      if (now > refundableAt(current)) {
        const after = await refundExpired(db, current);
        if (after.status !== current.status) report.escrow.closed++;
      } else if (current.status === "open") {
        const after = await syncRefunds(db, current);
        if (after.status !== current.status) report.escrow.closed++;
      }
    } catch (err) {
      report.escrow.failed++;
      log.warn("reconcile: escrow state of a deal not synced", { dealId: deal.id, err });
    }
  }
}
