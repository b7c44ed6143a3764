import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { rowsOf } from "@/db/queries/webhooks";

/** One round trip to the database (the health check). */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}

export type QueueDepths = {
  outbox: number;
  webhooks: number;
  pendingTransactions: number;
  /** Seconds since the oldest unmined transaction was recorded; null when none. */
  oldestPendingSeconds: number | null;
};

/** What waits for the cron, in one round trip: e-mails, webhook deliveries, transactions. */
export async function queueDepths(db: DbOrTx, chainId: number): Promise<QueueDepths> {
  const [r = {}] = rowsOf(
    await db.execute(sql`select
    (select count(*) from email_outbox where status = 'pending') as outbox,
    (select count(*) from webhook_deliveries where status = 'pending') as webhooks,
    (select count(*) from chain_transactions
      where chain_id = ${chainId} and status in ('pending', 'submitted')) as pending_transactions,
    (select floor(extract(epoch from now() - min(created_at))) from chain_transactions
      where chain_id = ${chainId} and status in ('pending', 'submitted')) as oldest_pending_seconds`),
  );
  return {
    outbox: Number(r.outbox),
    webhooks: Number(r.webhooks),
    pendingTransactions: Number(r.pending_transactions),
    oldestPendingSeconds:
      r.oldest_pending_seconds == null ? null : Number(r.oldest_pending_seconds),
  };
}
