"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { useSession } from "@/components/session-provider";
import {
  apiFetch,
  dashboardPath,
  errorMessage,
  type ProfileType,
  roleLabel,
  type User,
} from "@/lib/client/api";

// The sign-in page's body. With the dev identity provider (the embedded setup) it is that
// provider's form: e-mail and role → POST /api/dev/id-token → POST /api/auth/session. With
// a real provider, that provider's own flow yields the ID token, which is posted the same
// way: through window.milestoneSignIn(idToken) or by pasting it here.

export type SignInMode = "dev" | "external" | "unconfigured";

declare global {
  interface Window {
    /** Hook for a provider's SDK: sign in with the ID token it produced. */
    milestoneSignIn?: (idToken: string, profileType?: ProfileType) => Promise<User>;
  }
}

export function SignInPanel({ mode, next }: { mode: SignInMode; next: string | null }) {
  const session = useSession();
  const router = useRouter();
  const [role, setRole] = useState<ProfileType>("creator");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Login never switches an existing user's role (POST /api/auth/role does); the form
  // honours the role picked here by switching explicitly after signing in.
  async function finish(idToken: string, chosen: ProfileType): Promise<User> {
    let user = await session.signIn(idToken, chosen);
    if (user.profileType !== chosen) user = await session.setRole(chosen);
    router.push(next ?? dashboardPath(user.profileType));
    return user;
  }

  const { signIn } = session;
  useEffect(() => {
    window.milestoneSignIn = async (idToken, profileType) => {
      const user = await signIn(idToken, profileType);
      router.push(next ?? dashboardPath(user.profileType));
      return user;
    };
    return () => {
      window.milestoneSignIn = undefined;
    };
  }, [signIn, router, next]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      let idToken = String(form.get("idToken") ?? "").trim();
      if (mode === "dev") {
        const res = await apiFetch<{ idToken: string }>("/api/dev/id-token", {
          body: {
            email: String(form.get("email") ?? "").trim(),
            embeddedWallet: form.get("embeddedWallet") === "on",
          },
        });
        idToken = res.idToken;
      }
      await finish(idToken, role);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  if (session.status === "signed-in" && session.user && !busy)
    return (
      <section className="card stack" style={{ maxWidth: "32rem" }}>
        <h1>You are signed in</h1>
        <p>
          As <strong>{session.user.email}</strong>{" "}
          <span className="badge">{roleLabel(session.user.profileType)}</span>
        </p>
        <div className="row">
          <Link className="btn" href={next ?? dashboardPath(session.user.profileType)}>
            Continue
          </Link>
        </div>
      </section>
    );

  const roleField = (
    <fieldset className="choice">
      <legend>I am a</legend>
      <div className="row">
        {(["creator", "organization"] as const).map((value) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name="role"
              value={value}
              checked={role === value}
              onChange={() => setRole(value)}
            />
            {roleLabel(value)}
          </label>
        ))}
      </div>
    </fieldset>
  );

  return (
    <section className="card stack" style={{ maxWidth: "32rem" }}>
      <h1>Sign in</h1>
      {mode === "unconfigured" ? (
        <div className="alert error" role="alert">
          No identity provider is configured. Set IDP_JWKS_URL, IDP_ISSUER and IDP_AUDIENCE, or
          enable the dev identity provider.
        </div>
      ) : (
        <form className="stack" onSubmit={submit} aria-busy={busy}>
          {mode === "dev" ? (
            <>
              <p className="muted small">
                This demo signs you in with any e-mail address, no password needed. You can link a
                payout wallet afterwards, on the Wallet page.
              </p>
              <label>
                E-mail
                <input name="email" type="email" required autoComplete="email" />
              </label>
              {roleField}
              <label className="radio">
                <input
                  type="checkbox"
                  name="embeddedWallet"
                  aria-describedby="embedded-wallet-hint"
                />
                No browser wallet? Use an embedded wallet
              </label>
              <p id="embedded-wallet-hint" className="muted small embedded-hint">
                You get a wallet without installing an extension, and payouts can go to it straight
                away. In this demo its key is kept on this server.
              </p>
            </>
          ) : (
            <>
              <p className="muted small">
                Sign in with your identity provider. Its sign-in flow yields an ID token, which this
                page posts to <code>/api/auth/session</code> (providers call{" "}
                <code>window.milestoneSignIn(idToken)</code>). You can also paste a token here.
              </p>
              <label>
                ID token
                <textarea name="idToken" required spellCheck={false} />
              </label>
              {roleField}
            </>
          )}
          {error && (
            <div className="alert error" role="alert">
              {error}
            </div>
          )}
          <div className="row">
            <button className="btn" type="submit" disabled={busy || session.status === "loading"}>
              {busy ? "Signing in…" : "Sign in"}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
