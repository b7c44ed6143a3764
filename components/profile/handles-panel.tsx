"use client";

import { useCallback, useEffect, useId, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";

// A creator's platform handles. A deliverable's post must be by the handle declared here for
// its platform, and the handle must be verified (its one-time code placed in a post by it,
// then checked), or the verifier will not approve it automatically.

type Handle = {
  platform: string;
  handle: string;
  verified: boolean;
  verifiedAt: string | null;
  verification: { code: string; expiresAt: string; expired: boolean } | null;
};
const PLATFORMS = [
  ["instagram", "Instagram"],
  ["tiktok", "TikTok"],
  ["youtube", "YouTube"],
  ["x", "X"],
  ["sandbox", "Sandbox"],
] as const;

const platformName = (p: string) => PLATFORMS.find(([k]) => k === p)?.[1] ?? p;

export function HandlesPanel() {
  const [handles, setHandles] = useState<Handle[] | null>(null);
  const [platform, setPlatform] = useState<string>("instagram");
  const [handle, setHandle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setHandles((await apiFetch<{ handles: Handle[] }>("/api/profile/handles")).handles);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/profile/handles", { method: "PUT", body: { platform, handle } });
      setHandle("");
      await load();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove(p: string) {
    setError(null);
    try {
      await apiFetch(`/api/profile/handles?platform=${encodeURIComponent(p)}`, {
        method: "DELETE",
      });
      await load();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <section className="card stack" data-testid="handles-panel" data-loaded={handles !== null}>
      <h1>Your platform handles</h1>
      <p className="muted">
        The verifier reads each deliverable&apos;s post from its platform and checks that its author
        is the handle you declare here, and that you have verified it. A post by anyone else, or by
        a handle you have not verified, is not approved automatically.
      </p>
      {handles === null ? (
        <p className="muted">Loading…</p>
      ) : handles.length === 0 ? (
        <p className="muted empty">No handles yet.</p>
      ) : (
        <ul className="stack">
          {handles.map((h) => (
            <HandleRow
              key={h.platform}
              h={h}
              onChanged={load}
              onRemove={() => void remove(h.platform)}
            />
          ))}
        </ul>
      )}
      <form className="row" onSubmit={save}>
        <label className="field">
          <span>Platform</span>
          <select value={platform} onChange={(e) => setPlatform(e.target.value)}>
            {PLATFORMS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span>Handle</span>
          <input
            value={handle}
            onChange={(e) => setHandle(e.target.value)}
            placeholder="@yourname"
            required
          />
        </label>
        <button className="btn" type="submit" disabled={busy}>
          Save handle
        </button>
      </form>
      {error ? (
        <div className="alert error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}

/** One handle: its status and, while unverified, the code to place and the check. */
function HandleRow(props: { h: Handle; onChanged: () => Promise<void>; onRemove: () => void }) {
  const { h, onChanged, onRemove } = props;
  const id = useId();
  const [postUrl, setPostUrl] = useState("");
  const [checking, setChecking] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = platformName(h.platform);
  const code = h.verification && !h.verification.expired ? h.verification.code : null;

  async function check(e: React.FormEvent) {
    e.preventDefault();
    setChecking(true);
    setError(null);
    try {
      await apiFetch("/api/profile/handles/verify", {
        method: "POST",
        body: { platform: h.platform, handle: h.handle, postUrl },
      });
      setPostUrl("");
      await onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setChecking(false);
    }
  }

  // Declaring the same handle again issues a new code when the old one has expired.
  async function renew() {
    setRenewing(true);
    setError(null);
    try {
      await apiFetch("/api/profile/handles", {
        method: "PUT",
        body: { platform: h.platform, handle: h.handle },
      });
      await onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setRenewing(false);
    }
  }

  return (
    <li
      className="stack"
      data-testid="handle-row"
      data-platform={h.platform}
      data-handle={h.handle}
      data-verified={h.verified}
    >
      <div className="spread">
        <span>
          {name}: <strong className="mono">@{h.handle}</strong>{" "}
          {h.verified ? (
            <span className="badge ok" data-testid="handle-status">
              Verified
            </span>
          ) : (
            <span className="badge warn" data-testid="handle-status">
              Not verified
            </span>
          )}
        </span>
        <button
          type="button"
          className="btn small secondary"
          onClick={onRemove}
          aria-label={`Remove ${name} handle @${h.handle}`}
        >
          Remove
        </button>
      </div>
      {h.verified ? null : code ? (
        <form className="stack" onSubmit={check} aria-busy={checking}>
          <p className="small" id={`${id}-how`}>
            To prove @{h.handle} is yours, publish a post as @{h.handle} on {name}
            {h.platform === "sandbox" ? (
              <>
                {" "}
                (<a href="/social">the sandbox</a>)
              </>
            ) : null}{" "}
            whose text contains this code, then paste the post&apos;s link and check it. The code
            works until {new Date(h.verification?.expiresAt ?? 0).toLocaleString()}; you may delete
            the post once the handle is verified.
          </p>
          <p>
            <code className="mono" data-testid="handle-code">
              {code}
            </code>
          </p>
          <div className="row">
            <label className="field grow">
              <span>Post URL</span>
              <input
                type="url"
                value={postUrl}
                onChange={(e) => setPostUrl(e.target.value)}
                placeholder="https://…"
                aria-describedby={`${id}-how`}
                required
              />
            </label>
            <button className="btn" type="submit" disabled={checking}>
              {checking ? "Checking…" : "Check now"}
            </button>
          </div>
        </form>
      ) : (
        <div className="row">
          <p className="small">
            {h.verification
              ? "The verification code has expired."
              : "This handle has no verification code yet."}
          </p>
          <button
            type="button"
            className="btn small"
            onClick={() => void renew()}
            disabled={renewing}
          >
            {renewing ? "Getting a code…" : "Get a new code"}
          </button>
        </div>
      )}
      {error ? (
        <div className="alert error small" role="alert">
          {error}
        </div>
      ) : null}
    </li>
  );
}
