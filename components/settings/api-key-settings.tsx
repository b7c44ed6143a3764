"use client";

import { useCallback, useEffect, useId, useState } from "react";
import { SessionGate } from "@/components/deals/session-gate";
import { apiFetch, errorMessage } from "@/lib/client/api";

// API key settings: create a key (shown once, with a copy button), list the caller's keys
// with their prefix, scopes, expiry and last use, and revoke one. Key management is
// session-only on the server (an API key cannot manage keys).

type Scope = "read" | "write" | "settle" | "webhooks";

export type ApiKeyItem = {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
};

const SCOPES: { value: Scope; label: string; hint: string }[] = [
  {
    value: "read",
    label: "Read",
    hint: "reads: deals, milestones, events, notifications, your profile",
  },
  {
    value: "write",
    label: "Write",
    hint: "create and edit deals, take them, submit deliverables, verify, appeal: changes that move no money",
  },
  {
    value: "settle",
    label: "Settle",
    hint: "move money: settle, decide, refund, cancel, fund gaslessly and the test faucets",
  },
  {
    value: "webhooks",
    label: "Webhooks",
    hint: "webhook endpoints (reading them too): create, change, delete, rotate secrets, resend deliveries",
  },
];

const EXPIRY_CHOICES = [
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
  { value: "", label: "Never" },
];

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

export function ApiKeySettings() {
  return <SessionGate what="your API keys">{() => <ApiKeysBody />}</SessionGate>;
}

function ApiKeysBody() {
  const [keys, setKeys] = useState<ApiKeyItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);

  const load = useCallback(async (after: string | null) => {
    setLoadError(null);
    try {
      const qs = new URLSearchParams({ limit: "20" });
      if (after) qs.set("cursor", after);
      const page = await apiFetch<{ keys: ApiKeyItem[]; nextCursor: string | null }>(
        `/api/keys?${qs}`,
      );
      setKeys((prev) => (after && prev ? [...prev, ...page.keys] : page.keys));
      setCursor(page.nextCursor);
    } catch (err) {
      setLoadError(errorMessage(err));
    }
  }, []);

  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <div className="stack" data-testid="api-key-settings">
      <header className="stack">
        <h1>API keys</h1>
        <p className="muted">
          Programs call the API with <code>Authorization: Bearer &lt;key&gt;</code>, acting as you
          within the key&apos;s scopes. Keys are limited per key and per account (see{" "}
          <a href="/docs">the API reference</a>). Anyone holding a key can use it: keep it secret,
          and revoke it when you stop using it.
        </p>
      </header>

      {created ? (
        <KeyOnce name={created.name} apiKey={created.key} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeyForm
          onCreated={(key, name) => {
            setCreated({ key, name });
            void load(null);
          }}
        />
      )}

      <section className="card stack" aria-labelledby="keys-heading" aria-busy={keys === null}>
        <h2 id="keys-heading">Your keys</h2>
        {loadError ? (
          <div className="alert error" role="alert">
            Could not load your keys: {loadError}{" "}
            <button type="button" className="btn small secondary" onClick={() => void load(null)}>
              Try again
            </button>
          </div>
        ) : keys === null ? (
          <div className="stack" role="status" aria-label="Loading keys">
            <span className="skeleton" style={{ display: "block", height: "2.5rem" }} />
            <span className="skeleton" style={{ display: "block", height: "2.5rem" }} />
          </div>
        ) : keys.length === 0 ? (
          <p className="muted" data-testid="api-keys-empty">
            No keys yet. Create one above to call the API from a script or another service.
          </p>
        ) : (
          <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {keys.map((k) => (
              <KeyRow key={k.id} item={k} onRevoked={() => void load(null)} />
            ))}
          </ul>
        )}
        {cursor && (
          <button
            type="button"
            className="btn small secondary fit"
            onClick={() => void load(cursor)}
          >
            Show more
          </button>
        )}
      </section>
    </div>
  );
}

function KeyOnce({ name, apiKey, onDone }: { name: string; apiKey: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  return (
    <div className="alert ok stack" role="status" data-testid="api-key-once">
      <strong>
        Your new key “{name}” — shown only now. Copy it and store it somewhere safe; it cannot be
        shown again.
      </strong>
      <code className="mono break" data-testid="api-key-secret">
        {apiKey}
      </code>
      <div className="row">
        <button
          type="button"
          className="btn small"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(apiKey);
              setCopied("yes");
            } catch {
              setCopied("failed");
            }
          }}
        >
          {copied === "yes" ? "Copied" : "Copy key"}
        </button>
        <button type="button" className="btn small secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
      <span className="small" aria-live="polite">
        {copied === "failed" ? "Copying failed: select the key and copy it by hand." : ""}
      </span>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: string, name: string) => void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [expiry, setExpiry] = useState("90");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const expiresAt = expiry
        ? new Date(Date.now() + Number(expiry) * 86_400_000).toISOString()
        : undefined;
      const res = await apiFetch<{ key: string; apiKey: ApiKeyItem }>("/api/keys", {
        body: { name: name.trim(), scopes, expiresAt },
      });
      setName("");
      onCreated(res.key, res.apiKey.name);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a key</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          required
          maxLength={100}
          placeholder="e.g. reporting script"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-describedby={`${id}-name-hint`}
        />
        <span id={`${id}-name-hint`} className="small muted">
          For you, to recognise the key in this list.
        </span>
      </div>
      <fieldset className="stack">
        <legend>Scopes</legend>
        {SCOPES.map((s) => (
          <label
            key={s.value}
            className="row small"
            style={{
              flexDirection: "row",
              flexWrap: "nowrap",
              alignItems: "baseline",
              fontWeight: 400,
            }}
          >
            <input
              type="checkbox"
              style={{ flexShrink: 0 }}
              checked={scopes.includes(s.value)}
              onChange={(e) =>
                setScopes((prev) =>
                  e.target.checked ? [...prev, s.value] : prev.filter((x) => x !== s.value),
                )
              }
            />
            <span>
              <strong>{s.label}</strong> — {s.hint}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-expiry`}>Expires</label>
        <select id={`${id}-expiry`} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.label} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <button
        type="submit"
        className="btn fit"
        disabled={busy || scopes.length === 0 || !name.trim()}
      >
        {busy ? "Creating…" : "Create key"}
      </button>
    </form>
  );
}

function keyState(k: ApiKeyItem): { label: string; live: boolean } {
  if (k.revokedAt) return { label: `Revoked ${when(k.revokedAt)}`, live: false };
  if (k.expiresAt && Date.parse(k.expiresAt) <= Date.now())
    return { label: `Expired ${when(k.expiresAt)}`, live: false };
  return { label: k.expiresAt ? `Expires ${when(k.expiresAt)}` : "Never expires", live: true };
}

function KeyRow({ item, onRevoked }: { item: ApiKeyItem; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const state = keyState(item);

  async function revoke() {
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/api/keys/${item.id}`, { method: "DELETE" });
      setConfirming(false);
      onRevoked();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card stack" data-testid="api-key-row" aria-label={`Key ${item.name}`}>
      <div className="row" style={{ justifyContent: "space-between" }}>
        <strong>{item.name}</strong>
        <span className={`badge ${state.live ? "ok" : "neutral"}`}>
          {state.live ? "Active" : "Inactive"}
        </span>
      </div>
      <code className="mono small">{item.prefix}…</code>
      <p className="small muted">
        Scopes: {item.scopes.join(", ")} · Created {when(item.createdAt)} · {state.label} ·{" "}
        {item.lastUsedAt ? `Last used ${when(item.lastUsedAt)}` : "Never used"}
      </p>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      {state.live && item.revokedAt === null && (
        <div className="row">
          {confirming ? (
            <>
              <span className="small">
                Revoke “{item.name}”? Programs using it stop working at once.
              </span>
              <button type="button" className="btn small danger" onClick={revoke} disabled={busy}>
                {busy ? "Revoking…" : "Revoke"}
              </button>
              <button
                type="button"
                className="btn small secondary"
                onClick={() => setConfirming(false)}
                disabled={busy}
              >
                Keep it
              </button>
            </>
          ) : (
            <button
              type="button"
              className="btn small secondary"
              onClick={() => setConfirming(true)}
            >
              Revoke…
            </button>
          )}
        </div>
      )}
    </li>
  );
}
