"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";

// Asks for the demo passphrase (POST /api/demo/unlock). On success the server sets the
// unlock cookie and a refresh re-renders the gated page.
export function DemoUnlockForm() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const passphrase = String(new FormData(event.currentTarget).get("passphrase") ?? "");
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/demo/unlock", { body: { passphrase } });
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <section className="card stack narrow" data-testid="demo-gate">
      <h1>This demo is private</h1>
      <p className="muted">Enter the passphrase you were given to continue.</p>
      <form className="stack" onSubmit={submit} aria-busy={busy}>
        <label>
          Passphrase
          <input name="passphrase" type="password" required autoComplete="current-password" />
        </label>
        {error && (
          <div className="alert error" role="alert">
            {error}
          </div>
        )}
        <div className="row">
          <button className="btn" type="submit" disabled={busy}>
            {busy ? "Checking…" : "Unlock"}
          </button>
        </div>
      </form>
    </section>
  );
}
