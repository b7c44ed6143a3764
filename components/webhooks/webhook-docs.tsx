// The /docs section on receiving webhooks: what is sent, and how to verify the signature.
// The same sample is in the README; test/webhooks/delivery.test.ts runs a receiver like it.

export const verifySample = `import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const secret = process.env.MILESTONE_WEBHOOK_SECRET; // whsec_… (shown once when you registered)
const seen = new Set(); // use your database: remember handled event ids

/** True when \`header\` signs \`rawBody\` with \`secret\` and is at most 5 minutes old. */
function verify(rawBody, header, secret, toleranceSeconds = 300) {
  const fields = (header ?? "").split(",").map((p) => p.trim().split("="));
  const t = Number(fields.find(([k]) => k === "t")?.[1]);
  const signatures = fields.filter(([k]) => k === "v1").map(([, v]) => v ?? "");
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(\`\${t}.\${rawBody}\`).digest("hex"));
  return signatures.some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
}

createServer((req, res) => {
  let raw = ""; // the exact bytes: verify before parsing, never a re-serialized object
  req.setEncoding("utf8").on("data", (c) => (raw += c)).on("end", () => {
    if (!verify(raw, req.headers["milestone-signature"], secret)) return res.writeHead(400).end();
    const event = JSON.parse(raw); // { id, object: "event", type, createdAt, data: { object, previous_attributes?, dealId, … } }
    if (!seen.has(event.id)) {
      seen.add(event.id); // at-least-once: the same id may arrive twice
      console.log(event.type, event.data.dealId);
    }
    res.writeHead(200).end(); // any 2xx within 10 s counts as delivered
  });
}).listen(8080);`;

export function WebhookDocs() {
  return (
    <section className="card stack" aria-labelledby="webhooks">
      <h2 id="webhooks">Webhooks: receiving and verifying events</h2>
      <p className="small">
        Register an endpoint (<code>POST /api/webhooks</code> or{" "}
        <a href="/settings/webhooks">Settings → Webhooks</a>) and every event of your deals&apos;
        activity log is POSTed to it as JSON, the event object of <code>GET /api/events</code>:{" "}
        <code>
          {
            '{ "id", "object": "event", "type", "createdAt", "data": { "object", "previous_attributes"?, "dealId", "milestoneId", … } }'
          }
        </code>{" "}
        (<code>data.object</code>: the deal or milestone right after the event). Types: created,
        funded, taken, submitted, verified, rejected, approved, paid, refunded, cancelled, expired,
        completed, appealed, decided, overdue, review_window_elapsed, deposit.received,
        funding.returned, draft.submitted, draft.approved, draft.changes_requested.
      </p>
      <ul className="small">
        <li>
          <code>Milestone-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code> — HMAC-SHA256,
          keyed with the endpoint&apos;s secret (the whole <code>whsec_…</code> string), of{" "}
          <code>t + &quot;.&quot; + the raw body</code>. Refuse old timestamps (5 minutes).
        </li>
        <li>
          <code>Milestone-Event-Id</code> — the event id (also <code>id</code> in the body).
          Delivery is at-least-once: de-duplicate on it.
        </li>
        <li>
          Answer 2xx within 10 seconds. Anything else (or no answer) is retried with exponential
          backoff — 1, 3, 9, 27, 81 minutes, ~4 hours, then every 8 hours — for about 30 hours, then
          the delivery fails and the endpoint is disabled with a notice until you enable it again.
          The delivery log shows each request body and the receiver&apos;s status, headers and body;
          any delivery can be resent, and a test event of any type sent (
          <code>POST /api/webhooks/:id/test</code>).
        </li>
        <li>
          Endpoints must be https on a public address (private, loopback and metadata addresses are
          refused). To receive events on your own machine while developing, the operator lists the
          receiver&apos;s <code>host:port</code> in <code>FETCH_ALLOWED_HOSTS</code> (plain http is
          then accepted for it too); or, with nothing to configure,{" "}
          <code>npm run listen -- --forward-to http://localhost:4242/hook --api-key mk_…</code>{" "}
          follows your events through the API and forwards them signed with the listener secret it
          prints.
        </li>
      </ul>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <pre className="mono small scroll-x" tabIndex={0}>
        {verifySample}
      </pre>
    </section>
  );
}
