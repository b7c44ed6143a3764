"use client";

import { useCallback, useEffect, useState } from "react";
import { SessionGate } from "@/components/deals/session-gate";
import { apiFetch, errorMessage } from "@/lib/client/api";

// Webhook settings: register an endpoint (its signing secret is shown once), list them,
// enable/disable, delete, rotate the secret, and each endpoint's delivery log with resend,
// test events of any type, and each delivery's request body and the receiver's answer.

type Endpoint = {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
};
type Delivery = {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  test: boolean;
  request: { body: string } | null;
  response: { status: number | null; headers: Record<string, string>; body: string } | null;
  createdAt: string;
};

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" });

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="alert ok stack" role="status" data-testid="webhook-secret">
      <strong>Signing secret — shown only now. Store it where your receiver can read it.</strong>
      <code className="mono break">{secret}</code>
      <div className="row">
        <button
          type="button"
          className="btn small"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn small secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}

function CreateForm({
  eventTypes,
  onCreated,
}: {
  eventTypes: readonly string[];
  onCreated: (secret: string) => void;
}) {
  const [url, setUrl] = useState("");
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch<{ secret: string }>("/api/webhooks", {
        body: { url, eventTypes: all ? [] : types },
      });
      setUrl("");
      onCreated(res.secret);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-endpoint">
      <h2 id="new-endpoint">Add an endpoint</h2>
      <div className="field">
        <label htmlFor="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          placeholder="https://example.com/webhooks/milestone"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-describedby="webhook-url-hint"
        />
        <span id="webhook-url-hint" className="hint muted small">
          https, on a public address. Each event is POSTed as JSON with a Milestone-Signature header
          (see the API docs for verifying it).
        </span>
      </div>
      <fieldset className="choice stack tight">
        <legend>Events</legend>
        <label className="radio small">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          All events
        </label>
        {!all && (
          <div className="row">
            {eventTypes.map((t) => (
              <label key={t} className="radio small">
                <input
                  type="checkbox"
                  checked={types.includes(t)}
                  onChange={(e) =>
                    setTypes((prev) =>
                      e.target.checked ? [...prev, t] : prev.filter((x) => x !== t),
                    )
                  }
                />
                {t.replaceAll("_", " ")}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <button type="submit" className="btn fit" disabled={busy || (!all && types.length === 0)}>
        {busy ? "Adding…" : "Add endpoint"}
      </button>
    </form>
  );
}

/** A JSON body indented for reading (as sent when it is not JSON). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** What one delivery's last attempt sent and what the receiver answered. */
function Exchange({ d }: { d: Delivery }) {
  if (!d.request) return <p className="small muted">Not sent yet.</p>;
  return (
    <div className="stack small" data-testid="delivery-exchange">
      <strong>Request body</strong>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1) */}
      <pre className="mono small scroll-x" tabIndex={0} data-testid="delivery-request">
        {pretty(d.request.body)}
      </pre>
      {d.response ? (
        <>
          <strong>Response: HTTP {d.response.status ?? "—"}</strong>
          <dl className="mono small break" data-testid="delivery-response-headers">
            {Object.entries(d.response.headers).map(([name, value]) => (
              <div key={name}>
                <dt style={{ display: "inline" }}>{name}:</dt>{" "}
                <dd style={{ display: "inline", margin: 0 }}>{value}</dd>
              </div>
            ))}
          </dl>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard to be scrolled (WCAG 2.1.1) */}
          <pre className="mono small scroll-x" tabIndex={0} data-testid="delivery-response">
            {d.response.body || "(empty body)"}
          </pre>
        </>
      ) : (
        <p className="muted">No answer{d.lastError ? `: ${d.lastError}` : ""}.</p>
      )}
    </div>
  );
}

function TestEventForm({
  endpoint,
  eventTypes,
  onSent,
}: {
  endpoint: Endpoint;
  eventTypes: readonly string[];
  onSent: (d: Delivery) => Promise<void>;
}) {
  const [type, setType] = useState(eventTypes[0] ?? "created");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `test-type-${endpoint.id}`;
  async function send(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch<{ delivery: Delivery }>(`/api/webhooks/${endpoint.id}/test`, {
        method: "POST",
        body: { type },
      });
      await onSent(res.delivery);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="row" onSubmit={send}>
      <label htmlFor={id} className="small">
        Test event type
      </label>
      <select id={id} value={type} onChange={(e) => setType(e.target.value)}>
        {eventTypes.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <button type="submit" className="btn small" disabled={busy || !endpoint.enabled}>
        {busy ? "Sending…" : "Send test event"}
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

function DeliveryLog({
  endpoint,
  eventTypes,
}: {
  endpoint: Endpoint;
  eventTypes: readonly string[];
}) {
  // null until the first page answers: loading is never shown as "no deliveries".
  const [items, setItems] = useState<Delivery[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      try {
        const qs = new URLSearchParams({ limit: "20" });
        if (after) qs.set("cursor", after);
        const page = await apiFetch<{ deliveries: Delivery[]; nextCursor: string | null }>(
          `/api/webhooks/${endpoint.id}/deliveries?${qs}`,
        );
        setItems((prev) => (after ? [...(prev ?? []), ...page.deliveries] : page.deliveries));
        setCursor(page.nextCursor);
      } catch (err) {
        setError(errorMessage(err));
      }
    },
    [endpoint.id],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  /** Reloads until the delivery is no longer pending (it is sent right after the answer). */
  async function follow(deliveryId: string) {
    for (let i = 0; i < 15; i++) {
      const page = await apiFetch<{ deliveries: Delivery[]; nextCursor: string | null }>(
        `/api/webhooks/${endpoint.id}/deliveries?limit=20`,
      );
      setItems(page.deliveries);
      setCursor(page.nextCursor);
      if (page.deliveries.find((x) => x.id === deliveryId)?.status !== "pending") return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function resend(d: Delivery) {
    setError(null);
    try {
      await apiFetch(`/api/webhooks/${endpoint.id}/deliveries/${d.id}/resend`, { method: "POST" });
      setNotice(`Event ${d.eventType} queued again.`);
      await load(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="stack">
      <TestEventForm
        endpoint={endpoint}
        eventTypes={eventTypes}
        onSent={async (d) => {
          setNotice(`Test event ${d.eventType} queued.`);
          await follow(d.id).catch((err) => setError(errorMessage(err)));
        }}
      />
      <p className="small muted" aria-live="polite">
        {notice}
      </p>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      {items === null ? (
        error ? null : (
          <p className="small muted" role="status">
            Loading deliveries…
          </p>
        )
      ) : items.length === 0 ? (
        <p className="small muted">No deliveries yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="small simple">
            <caption className="visually-hidden">Deliveries to {endpoint.url}</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">HTTP</th>
                <th scope="col">Attempts</th>
                <th scope="col">When</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id}>
                  <td>
                    {d.eventType}
                    {d.test && <span className="badge neutral plain">test</span>}
                    <div className="mono muted">{d.eventId.slice(0, 8)}</div>
                    <details>
                      <summary className="small">Payload and response</summary>
                      <Exchange d={d} />
                    </details>
                  </td>
                  <td>
                    <span
                      className={`badge ${d.status === "delivered" ? "ok" : d.status === "failed" ? "bad" : "warn"}`}
                    >
                      {d.status}
                    </span>
                    {d.lastError && d.status !== "delivered" && (
                      <div className="muted break">{d.lastError}</div>
                    )}
                    {d.nextAttemptAt && (
                      <div className="muted">next try {when(d.nextAttemptAt)}</div>
                    )}
                  </td>
                  <td>{d.lastStatusCode ?? "—"}</td>
                  <td>{d.attempts}</td>
                  <td>{when(d.deliveredAt ?? d.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn small ghost"
                      disabled={!endpoint.enabled}
                      onClick={() => void resend(d)}
                      aria-label={`Resend ${d.eventType} event ${d.eventId}`}
                    >
                      Resend
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" className="btn small secondary fit" onClick={() => void load(cursor)}>
          Older deliveries
        </button>
      )}
    </div>
  );
}

function EndpointCard({
  endpoint,
  eventTypes,
  onChanged,
  onSecret,
}: {
  endpoint: Endpoint;
  eventTypes: readonly string[];
  onChanged: () => Promise<void>;
  onSecret: (s: string) => void;
}) {
  const [showLog, setShowLog] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      await onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card stack" data-testid="webhook-endpoint">
      <div className="spread">
        <div className="stack">
          <strong className="mono break">{endpoint.url}</strong>
          <span className="small muted">
            {endpoint.eventTypes.length === 0 ? "All events" : endpoint.eventTypes.join(", ")}
          </span>
        </div>
        <span className={`badge ${endpoint.enabled ? "ok" : "neutral"}`}>
          {endpoint.enabled ? "enabled" : "disabled"}
        </span>
      </div>
      {endpoint.disabledReason && (
        <div className="alert error" role="alert">
          {endpoint.disabledReason}
        </div>
      )}
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button
          type="button"
          className="btn small secondary"
          disabled={busy}
          onClick={() =>
            run(() =>
              apiFetch(`/api/webhooks/${endpoint.id}`, {
                method: "PATCH",
                body: { enabled: !endpoint.enabled },
              }),
            )
          }
        >
          {endpoint.enabled ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          className="btn small secondary"
          aria-expanded={showLog}
          onClick={() => setShowLog((v) => !v)}
        >
          {showLog ? "Hide deliveries" : "Deliveries"}
        </button>
        <button
          type="button"
          className="btn small ghost"
          disabled={busy}
          onClick={() =>
            run(async () => {
              if (!window.confirm("Rotate the secret? The old one stops working at once.")) return;
              const res = await apiFetch<{ secret: string }>(
                `/api/webhooks/${endpoint.id}/rotate-secret`,
                { method: "POST" },
              );
              onSecret(res.secret);
            })
          }
        >
          Rotate secret
        </button>
        <button
          type="button"
          className="btn small ghost"
          disabled={busy}
          onClick={() =>
            run(async () => {
              if (!window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`))
                return;
              await apiFetch(`/api/webhooks/${endpoint.id}`, { method: "DELETE" });
            })
          }
        >
          Delete
        </button>
      </div>
      {showLog && <DeliveryLog endpoint={endpoint} eventTypes={eventTypes} />}
    </li>
  );
}

function WebhookSettings({ eventTypes }: { eventTypes: readonly string[] }) {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (after: string | null = null) => {
    try {
      const qs = new URLSearchParams({ limit: "20" });
      if (after) qs.set("cursor", after);
      const page = await apiFetch<{ endpoints: Endpoint[]; nextCursor: string | null }>(
        `/api/webhooks?${qs}`,
      );
      setEndpoints((prev) => (after ? [...(prev ?? []), ...page.endpoints] : page.endpoints));
      setCursor(page.nextCursor);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="stack" aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p className="muted">
        Every event on your deals (funded, submitted, approved, paid, …) is POSTed to your endpoints
        as signed JSON, retried with backoff for more than a day.{" "}
        <a href="/docs#webhooks">How to verify the signature</a>.
      </p>
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      <CreateForm
        eventTypes={eventTypes}
        onCreated={(s) => {
          setSecret(s);
          void load();
        }}
      />
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <h2>Your endpoints</h2>
      {endpoints === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : endpoints.length === 0 ? (
        <p className="empty">No endpoints yet.</p>
      ) : (
        <ul className="inbox-list">
          {endpoints.map((e) => (
            <EndpointCard
              key={e.id}
              endpoint={e}
              eventTypes={eventTypes}
              onChanged={() => load()}
              onSecret={setSecret}
            />
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" className="btn secondary fit" onClick={() => void load(cursor)}>
          More endpoints
        </button>
      )}
    </section>
  );
}

/** `eventTypes`: the activity log's event types, from the server (lib/webhooks/schemas.ts). */
export function WebhookSettingsPage({ eventTypes }: { eventTypes: readonly string[] }) {
  return (
    <SessionGate what="your webhook settings">
      {() => <WebhookSettings eventTypes={eventTypes} />}
    </SessionGate>
  );
}
