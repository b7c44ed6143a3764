"use client";

import { useSearchParams } from "next/navigation";
import { type FormEvent, useEffect, useId, useState } from "react";
import type { IdentitiesJson } from "@/lib/auth/identities";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { postToAuth, SignInError } from "@/lib/client/web-sign-in";

// The ways this account signs in, and adding another one. Adding runs the real sign-in
// flow of that method with link=1 (lib/auth/web-sign-in.ts), which then links it to this
// account instead of signing in: one account per person, whatever the way in.

const LINK_ERRORS: Record<string, string> = {
  identity_in_use:
    "That sign-in already belongs to another Milestone account. Sign in with it to use that account.",
  account_exists:
    "Its e-mail address belongs to another Milestone account. Sign in to that account instead.",
  link_needs_session:
    "You were signed out before the link finished. Sign in again, then add it from here.",
  link_unsupported: "That way of signing in cannot be added here.",
  link_expired: "That link has expired. Ask for a new one below.",
  link_used: "That link was already used. Ask for a new one below.",
  link_other_browser: "That link was asked for in another browser. Open it there.",
  invalid_token: "The identity provider's answer did not check out. Please try again.",
  sign_in_failed: "Adding it did not complete (it was cancelled or expired). Please try again.",
};
const linkErrorText = (code: string) =>
  LINK_ERRORS[code] ?? "Adding it did not complete. Please try again.";

export function SignInMethodsPanel() {
  const id = useId();
  const params = useSearchParams();
  const [data, setData] = useState<IdentitiesJson | null>(null);
  const [error, setError] = useState<string | null>(() => {
    const code = params.get("link_error");
    return code ? linkErrorText(code) : null;
  });
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const linked = params.get("linked");

  useEffect(() => {
    apiFetch<IdentitiesJson>("/api/auth/identities")
      .then(setData)
      .catch((err) => setError(errorMessage(err)));
  }, []);

  const fail = (err: unknown) =>
    setError(err instanceof SignInError ? linkErrorText(err.code) : errorMessage(err));

  async function addOidc() {
    setBusy(true);
    setError(null);
    try {
      const next = await postToAuth("signin/oidc", { link: "1", callbackUrl: "/profile" });
      window.location.assign(next.toString());
    } catch (err) {
      fail(err);
      setBusy(false);
    }
  }

  async function addEmail(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setBusy(true);
    setError(null);
    setSentTo(null);
    try {
      const next = await postToAuth("signin/email", { link: "1", email, callbackUrl: "/profile" });
      if (next.pathname === "/profile") window.location.assign(next.toString());
      else setSentTo(email);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="sign-in-methods">
      <h2 id={`${id}-title`}>Ways to sign in</h2>
      <p className="muted small">
        Each of these opens this same account. To add another, you must be signed in here: a way in
        that already opens another account, or whose e-mail belongs to one, is refused.
      </p>
      {linked && !error && (
        <div className="alert ok small" role="status">
          Added. You can now sign in that way too.
        </div>
      )}
      {error && (
        <div className="alert error small" role="alert">
          {error}
        </div>
      )}
      {data === null ? (
        !error && <p className="muted small">Loading ways to sign in…</p>
      ) : (
        <ul className="stack tight" aria-label="Ways to sign in">
          {data.methods.map((m) => (
            <li key={`${m.kind}-${m.label}-${m.detail}`}>
              <strong>{m.label}</strong>
              {m.detail && <> · {m.detail}</>}
              <span className="muted small">
                {m.first
                  ? " · how this account was made"
                  : m.linkedAt
                    ? ` · added ${new Date(m.linkedAt).toLocaleDateString()}`
                    : m.kind === "email"
                      ? " · your account's e-mail"
                      : " · your linked wallet"}
              </span>
            </li>
          ))}
        </ul>
      )}
      {data?.canLink.oidc && (
        <div>
          <button type="button" className="btn secondary" onClick={addOidc} disabled={busy}>
            {busy ? "Opening…" : `Add ${data.canLink.oidc}`}
          </button>
        </div>
      )}
      {data?.canLink.email && (
        <form className="stack tight" onSubmit={addEmail}>
          <label className="field" htmlFor={`${id}-email`}>
            <span>Add an e-mail address</span>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              disabled={busy}
            />
          </label>
          <p className="muted small">
            We send a link to it. Open it in this browser while signed in here: the address then
            signs in to this account and receives its notifications.
          </p>
          <div>
            <button type="submit" className="btn secondary" disabled={busy}>
              {busy ? "Sending…" : "Send the link"}
            </button>
          </div>
          {sentTo && (
            <div className="alert ok small" role="status">
              Sent to {sentTo}. Open the link in this browser.
            </div>
          )}
        </form>
      )}
    </section>
  );
}
