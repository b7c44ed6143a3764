import type { Db } from "@/db/client";
import {
  claimDueEmails,
  emailsWithContext,
  markEmailFailed,
  markEmailSent,
} from "@/db/queries/notifications";
import { appUrl } from "@/lib/env";
import { log } from "@/lib/log";
import { emailFor } from "@/lib/notify/describe";
import { configuredMailer, type Mailer } from "@/lib/notify/mailer";
import type { ReconcileReport } from "@/lib/settle/reconcile";
import { MAX_ATTEMPTS, retryDelaySeconds } from "@/lib/webhooks/deliver";

// The e-mail outbox loop, drained by the reconcile routine like the webhook outbox: claim
// due rows with a lease, render each from its event (the same words as the inbox), send with
// no transaction open, record. A crash between send and record sends the mail again once
// the lease runs out (the http sender passes the row id as an idempotency key).

/** Its part of the reconcile answer (lib/settle/reconcile.ts reconcileResponse). */
export type EmailDrainReport = NonNullable<ReconcileReport["outbox"]>["emails"];

export async function drainEmails(
  db: Db,
  opts: { mailer?: Mailer; batchSize?: number; maxBatches?: number } = {},
): Promise<EmailDrainReport> {
  const mailer = opts.mailer ?? configuredMailer();
  const report: EmailDrainReport = { sent: 0, retrying: 0, failed: 0 };
  for (let batch = 0; batch < (opts.maxBatches ?? 10); batch++) {
    const claimed = await claimDueEmails(db, { limit: opts.batchSize ?? 50, leaseSeconds: 120 });
    if (claimed.length === 0) break;
    const attemptsOf = new Map(claimed.map((c) => [c.id, c.attempts]));
    const rows = await emailsWithContext(
      db,
      claimed.map((c) => c.id),
    );
    await Promise.all(
      rows.map(async (r) => {
        const attempts = attemptsOf.get(r.id) ?? 1;
        const mail =
          r.eventId && r.dealTitle !== null
            ? emailFor(
                {
                  type: r.type,
                  data: r.data ?? {},
                  dealTitle: r.dealTitle,
                  milestoneTitle: r.milestoneTitle,
                  actor: r.actor,
                  brandName: r.brandName,
                  creatorName: r.creatorName,
                },
                `${appUrl()}/deals/${r.dealId}`,
              )
            : { subject: r.subject, text: r.body };
        try {
          await mailer.send({ id: r.id, to: r.toAddress, subject: mail.subject, text: mail.text });
          await markEmailSent(db, r.id, { subject: mail.subject, body: mail.text });
          report.sent++;
        } catch (err) {
          const giveUp = attempts >= MAX_ATTEMPTS;
          await markEmailFailed(db, {
            id: r.id,
            attempts,
            error: (err as Error).message,
            retryInSeconds: giveUp ? null : retryDelaySeconds(attempts),
          }).catch((e) => log.error("e-mail result not recorded", { id: r.id, err: e }));
          report[giveUp ? "failed" : "retrying"]++;
        }
      }),
    );
  }
  return report;
}
