"use client";

import { useCallback, useEffect, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";

// A creator's platform handles. A deliverable's post must be by the handle declared here for
// its platform, or the verifier will not approve it automatically.

type Handle = { platform: string; handle: string };
const PLATFORMS = [
  ["instagram", "Instagram"],
  ["tiktok", "TikTok"],
  ["youtube", "YouTube"],
  ["x", "X"],
  ["sandbox", "Sandbox"],
] as const;

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
    <section className="card stack" data-testid="handles-panel">
      <h1>Your platform handles</h1>
      <p className="muted">
        The verifier reads each deliverable&apos;s post from its platform and checks that its author
        is the handle you declare here. A post by anyone else is not approved automatically.
      </p>
      {handles === null ? (
        <p className="muted">Loading…</p>
      ) : handles.length === 0 ? (
        <p className="muted empty">No handles yet.</p>
      ) : (
        <ul className="stack">
          {handles.map((h) => (
            <li key={h.platform} className="spread" data-testid="handle-row">
              <span>
                {PLATFORMS.find(([k]) => k === h.platform)?.[1] ?? h.platform}:{" "}
                <strong className="mono">@{h.handle}</strong>
              </span>
              <button
                type="button"
                className="btn small secondary"
                onClick={() => void remove(h.platform)}
              >
                Remove
              </button>
            </li>
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
