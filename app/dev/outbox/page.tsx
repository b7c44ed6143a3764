import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { recentEmails } from "@/db/queries/notifications";
import { getDb } from "@/lib/db";
import { outboxPageShown } from "@/lib/env";

export const metadata: Metadata = { title: "Local e-mail outbox" };
export const dynamic = "force-dynamic";

// The embedded e-mail sender's mailbox: with MAIL_TRANSPORT=outbox nothing leaves the
// machine, and the mails the app "sent" are read here. Local only: on the embedded setup
// with the dev identity provider on (where anyone may sign in as anyone anyway); a 404
// everywhere else, since it shows every user's mail.
export default async function DevOutboxPage() {
  if (!outboxPageShown()) notFound();
  const mails = await recentEmails(await getDb(), 100);
  return (
    <section className="stack" aria-labelledby="outbox-title">
      <h1 id="outbox-title">Local e-mail outbox</h1>
      <p className="muted">
        The last {mails.length} e-mails (notifications and sign-in links). They are sent by the
        reconcile routine (<code>npm run reconcile</code> or <code>GET /api/cron/reconcile</code>);
        pending ones get their text when they are sent.
      </p>
      {mails.length === 0 && <p className="empty">No e-mails yet.</p>}
      <ul className="inbox-list">
        {mails.map((m) => (
          <li key={m.id} className="card stack" data-testid="outbox-mail">
            <div className="spread">
              <strong>{m.subject || "(not sent yet)"}</strong>
              <span
                className={`badge ${m.status === "sent" ? "ok" : m.status === "failed" ? "bad" : "warn"}`}
              >
                {m.status}
              </span>
            </div>
            <span className="small muted">
              To {m.toAddress} · {(m.sentAt ?? m.createdAt).toISOString()}
            </span>
            {m.body && <pre className="pre-line small">{m.body}</pre>}
          </li>
        ))}
      </ul>
    </section>
  );
}
