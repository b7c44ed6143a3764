import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { drainEmails, type EmailDrainReport } from "@/lib/notify/outbox";
import { drainWebhooks, type WebhookDrainReport } from "@/lib/webhooks/deliver";

// What consumes the activity log outside the request: webhook deliveries and e-mails,
// both rows written with their event. Run by the reconcile routine (cron route,
// `npm run reconcile`); safe to run from several instances at once (leases, SKIP LOCKED).

export type OutboxReport = { webhooks: WebhookDrainReport; emails: EmailDrainReport };

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
