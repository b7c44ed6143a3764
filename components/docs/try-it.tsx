"use client";

import { useId, useState } from "react";

// "Try it" on /docs: sends one request to this API with an API key as the bearer — and
// without the browser's session cookie (credentials: "omit"), so what you see is exactly
// what a program holding that key gets, scopes and rate limits included. The key stays in
// this component's state; it is never stored.

/** `path`: the reference's; `url`: the pre-filled request (example ids and query filled in). */
export type TryItEndpoint = { method: string; path: string; url?: string; example?: string };

type Result = {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
};

const SHOWN_HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"];

export function TryIt({ endpoints }: { endpoints: TryItEndpoint[] }) {
  const id = useId();
  const [key, setKey] = useState("");
  const [choice, setChoice] = useState(0);
  const [path, setPath] = useState(endpoints[0]?.url ?? endpoints[0]?.path ?? "/api/auth/me");
  const [body, setBody] = useState(endpoints[0]?.example ?? "");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const endpoint = endpoints[choice];
  const method = endpoint?.method ?? "GET";
  const hasBody = method !== "GET" && method !== "DELETE";

  function pick(index: number) {
    setChoice(index);
    setPath(endpoints[index]?.url ?? endpoints[index]?.path ?? "");
    setBody(endpoints[index]?.example ?? "");
    setResult(null);
  }

  async function send(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      if (!path.startsWith("/api/")) throw new Error("The path must start with /api/.");
      const headers: Record<string, string> = { authorization: `Bearer ${key.trim()}` };
      if (hasBody) headers["content-type"] = "application/json";
      const res = await fetch(path, {
        method,
        headers,
        body: hasBody ? body || "{}" : undefined,
        credentials: "omit",
        cache: "no-store",
      });
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: show as is
      }
      setResult({
        status: res.status,
        statusText: res.statusText,
        headers: SHOWN_HEADERS.flatMap((h) => {
          const v = res.headers.get(h);
          return v === null ? [] : [[h, v] as [string, string]];
        }),
        body: pretty,
      });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="try-it">
      <h2 id={`${id}-title`}>Try it with an API key</h2>
      <p className="small muted">
        Create a key on <a href="/settings/keys">Settings → API keys</a>, paste it here and send a
        request. It goes out with <code>Authorization: Bearer</code> only (not your session cookie),
        so scopes and rate limits apply as they would for your program. Requests are real: a write
        changes your data.
      </p>
      <form className="stack" onSubmit={send}>
        <div className="field">
          <label htmlFor={`${id}-key`}>API key</label>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            placeholder="mk_…"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-endpoint`}>Endpoint</label>
          <select
            id={`${id}-endpoint`}
            value={choice}
            onChange={(e) => pick(Number(e.target.value))}
          >
            {endpoints.map((ep, i) => (
              <option key={`${ep.method} ${ep.path}`} value={i}>
                {ep.method} {ep.path}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-path`}>Path (fill in ids and query)</label>
          <input
            id={`${id}-path`}
            className="mono"
            value={path}
            onChange={(e) => setPath(e.target.value)}
          />
        </div>
        {hasBody && (
          <div className="field">
            <label htmlFor={`${id}-body`}>JSON body</label>
            <textarea
              id={`${id}-body`}
              className="mono"
              rows={6}
              value={body}
              onChange={(e) => setBody(e.target.value)}
            />
          </div>
        )}
        <button type="submit" className="btn fit" disabled={busy || !key.trim()}>
          {busy ? "Sending…" : `Send ${method}`}
        </button>
      </form>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <div aria-live="polite">
        {result && (
          <div className="stack" data-testid="try-it-result">
            <strong>
              {result.status} {result.statusText}
            </strong>
            {result.headers.length > 0 && (
              <code className="small">
                {result.headers.map(([k, v]) => `${k}: ${v}`).join(" · ")}
              </code>
            )}
            <pre className="mono small" style={{ overflowX: "auto", maxHeight: "24rem" }}>
              {result.body}
            </pre>
          </div>
        )}
      </div>
    </section>
  );
}
