"use client";

import { useEffect, useId, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";

// The name the other party sees on deals, the timeline, the inbox and e-mails (an
// organisation's name, a creator's), instead of the e-mail address.

type Profile = { email: string; profileType: string; displayName: string | null };

export function DisplayNameForm() {
  const id = useId();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    apiFetch<{ profile: Profile }>("/api/profile")
      .then(({ profile }) => {
        setProfile(profile);
        setName(profile.displayName ?? "");
      })
      .catch((err) => setError(errorMessage(err)));
  }, []);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const res = await apiFetch<{ profile: Profile }>("/api/profile", {
        method: "PATCH",
        body: { displayName: name.trim() || null },
      });
      setProfile(res.profile);
      setName(res.profile.displayName ?? "");
      setSaved(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const brand = profile?.profileType === "organization";
  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="display-name">
      <h2 id={`${id}-title`}>{brand ? "Your organisation's name" : "Your name"}</h2>
      <p className="muted small">
        What the other party sees on your deals, in their inbox and in e-mails
        {profile ? ` instead of ${profile.email}` : ""}.
      </p>
      <form className="stack tight" onSubmit={save}>
        <label className="field" htmlFor={`${id}-name`}>
          <span>Display name</span>
          <input
            id={`${id}-name`}
            value={name}
            maxLength={80}
            onChange={(e) => {
              setName(e.target.value);
              setSaved(false);
            }}
            placeholder={brand ? "e.g. Acme Coffee" : "e.g. Sam Rivera"}
            disabled={busy || profile === null}
          />
        </label>
        {error && (
          <div className="alert error small" role="alert">
            {error}
          </div>
        )}
        <div className="row">
          <button type="submit" className="btn" disabled={busy || profile === null}>
            {busy ? "Saving…" : "Save"}
          </button>
          {saved && (
            <span className="small ok-text" role="status">
              Saved.
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
