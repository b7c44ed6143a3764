import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { drainEmails } from "@/lib/notify/outbox";
import type { ReconcileReport } from "@/lib/settle/reconcile";
import { drainWebhooks } from "@/lib/webhooks/deliver";

// What consumes the activity log outside the request: webhook deliveries and e-mails,
// both rows written with their event. Run by the reconcile routine (cron route,
// `npm run reconcile`); safe to run from several instances at once (leases, SKIP LOCKED).

/** Its part of the reconcile answer (lib/settle/reconcile.ts reconcileResponse). */
export type OutboxReport = NonNullable<ReconcileReport["outbox"]>;

export async function drainOutbox(db: Db): Promise<OutboxReport> {
  const [webhooks, emails] = await Promise.all([
    drainWebhooks(db).catch((err) => {
      log.error("webhook outbox not drained", { err });
      return { delivered: 0, retrying: 0, failed: 0 };
    }),
    drainEmails(db).catch((err) => {
      log.error("e-mail outbox not drained", { err });
      return { sent: 0, retrying: 0, failed: 0 };
    }),
  ]);
  return { webhooks, emails };
}
