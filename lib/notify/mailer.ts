import { type Env, env } from "@/lib/env";

// The pluggable e-mail sender. `outbox` (the embedded default) sends nothing anywhere: the
// email_outbox row is the mail, marked sent and shown on the local outbox page (/dev/outbox).
// `http` posts each mail as JSON to a provider's send API (Resend, Postmark-style bridges,
// or your own relay) with a bearer key. SMTP is not built in: point MAIL_HTTP_URL at a
// provider's HTTP API instead.

export type Mail = { id: string; to: string; subject: string; text: string };

export interface Mailer {
  readonly name: "outbox" | "http";
  /** Resolves when the mail is accepted; throws (with a reason) when it was not. */
  send(mail: Mail): Promise<void>;
}

export const outboxMailer: Mailer = { name: "outbox", send: async () => {} };

export function httpMailer(opts: {
  url: string;
  apiKey?: string;
  from: string;
  timeoutMs?: number;
}): Mailer {
  return {
    name: "http",
    async send(mail) {
      const res = await fetch(opts.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
          // The provider drops a repeat of the same mail (a retry after a lost answer).
          "idempotency-key": mail.id,
        },
        body: JSON.stringify({
          from: opts.from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
        }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        redirect: "error",
      });
      await res.body?.cancel().catch(() => {});
      if (!res.ok) throw new Error(`mail provider answered HTTP ${res.status}`);
    },
  };
}

/** The sender the configuration chooses (MAIL_TRANSPORT). */
export function configuredMailer(e: Env = env()): Mailer {
  if (e.MAIL_TRANSPORT === "http" && e.MAIL_HTTP_URL)
    return httpMailer({ url: e.MAIL_HTTP_URL, apiKey: e.MAIL_HTTP_API_KEY, from: e.MAIL_FROM });
  return outboxMailer;
}
