"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { useSession } from "@/components/session-provider";
import {
  dashboardPath,
  errorMessage,
  type ProfileType,
  roleLabel,
  type User,
} from "@/lib/client/api";

// The sign-in page's body: the role, then the methods this deployment has configured
// (app/sign-in/page.tsx says which). "Continue with <provider>" is the OpenID Connect
// redirect through next-auth (lib/auth/web-sign-in.ts): /auth/csrf, then POST
// /auth/signin/oidc, which answers the provider's authorization URL; the provider sends the
// browser back to /auth/callback/oidc, which sets the session cookie and lands on `next` or
// the role's dashboard. A provider's own SDK can still sign in with an ID token through
// window.milestoneSignIn(idToken) (POST /api/auth/session).

export type SignInMethods = {
  /** The OpenID provider's name, when browser sign-in through one is configured. */
  oidc: { name: string } | null;
  /** E-mail links, delivered by the app's mailer. */
  email: boolean;
  /** Where the embedded setup's mail can be read (/dev/outbox), when it can. */
  outbox: string | null;
};

declare global {
  interface Window {
    /** Hook for a provider's SDK: sign in with the ID token it produced. */
    milestoneSignIn?: (idToken: string, profileType?: ProfileType) => Promise<User>;
  }
}

const ERRORS: Record<string, string> = {
  invalid_token: "The identity provider's answer did not check out. Please try again.",
  unavailable: "The identity provider could not be reached. Please try again in a moment.",
  sign_in_failed:
    "The sign-in did not complete (it was cancelled, expired or answered for another request). Please try again.",
  link_expired: "That sign-in link has expired. Ask for a new one below.",
  link_used: "That sign-in link was already used (or never existed). Ask for a new one below.",
  link_other_browser:
    "That sign-in link was asked for in another browser. Open it there, or ask for a new one here.",
  mail_failed: "The sign-in e-mail could not be sent. Please try again in a moment.",
};
const errorText = (code: string) => ERRORS[code] ?? ERRORS.sign_in_failed;

/**
 * Starts a sign-in through next-auth: its CSRF token, then POST /auth/signin/<provider>,
 * which answers where to go next: the provider's authorization URL (oidc), or /sign-in
 * ("check your e-mail", or ?error= when the mail could not be sent).
 */
async function startSignIn(provider: "oidc" | "email", fields: Record<string, string>) {
  const csrf = await fetch("/auth/csrf", { credentials: "same-origin", cache: "no-store" });
  if (!csrf.ok) throw new Error(`The server answered ${csrf.status}.`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`/auth/signin/${provider}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, csrfToken, json: "true" }),
  });
  const { url } = (await res.json().catch(() => ({}))) as { url?: string };
  if (!res.ok || !url) throw new Error(errorText("unavailable"));
  const next = new URL(url, window.location.href);
  if (next.searchParams.has("error"))
    throw new Error(errorText(provider === "email" ? "mail_failed" : "unavailable"));
  return next.toString();
}

export function SignInPanel({
  methods,
  next,
  error: initialError,
}: {
  methods: SignInMethods;
  next: string | null;
  error: string | null;
}) {
  const session = useSession();
  const router = useRouter();
  const [role, setRole] = useState<ProfileType>("creator");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(
    initialError ? (errorText(initialError) ?? null) : null,
  );

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

  const [sentTo, setSentTo] = useState<string | null>(null);
  const callbackUrl = next ?? dashboardPath(role);

  async function continueWithOidc() {
    setBusy(true);
    setError(null);
    try {
      window.location.assign(await startSignIn("oidc", { callbackUrl, role }));
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  async function sendLink(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setBusy(true);
    setError(null);
    setSentTo(null);
    try {
      await startSignIn("email", { callbackUrl, role, email });
      setSentTo(email);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
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

  const none = !methods.oidc && !methods.email;
  return (
    <section className="card stack sign-in" style={{ maxWidth: "32rem" }}>
      <h1>Sign in</h1>
      {none ? (
        <div className="alert error" role="alert">
          No sign-in method is configured. Set IDP_ISSUER, IDP_AUDIENCE, IDP_JWKS_URL and
          OIDC_CLIENT_SECRET for an OpenID provider, or MAIL_TRANSPORT=http and MAIL_HTTP_URL for
          e-mail links.
        </div>
      ) : (
        <div className="stack" aria-busy={busy}>
          {roleField}
          {error && (
            <div className="alert error" role="alert">
              {error}
            </div>
          )}
          {methods.oidc && (
            <div className="stack">
              <button
                className="btn"
                type="button"
                onClick={continueWithOidc}
                disabled={busy || session.status === "loading"}
              >
                {busy ? "Redirecting…" : `Continue with ${methods.oidc.name}`}
              </button>
              <p className="muted small">
                You sign in on {methods.oidc.name}&apos;s own page and come back here. You can link
                a payout wallet afterwards, on the Wallet page.
              </p>
            </div>
          )}
          {methods.oidc && methods.email && <p className="or-divider muted small">or</p>}
          {methods.email && (
            <form className="stack" onSubmit={sendLink}>
              <label>
                E-mail address
                <input name="email" type="email" required autoComplete="email" />
              </label>
              <div className="row">
                <button
                  className={methods.oidc ? "btn secondary" : "btn"}
                  type="submit"
                  disabled={busy || session.status === "loading"}
                >
                  E-mail me a sign-in link
                </button>
              </div>
              {sentTo && (
                <div className="alert ok" role="status" data-testid="link-sent">
                  We sent a sign-in link to <strong>{sentTo}</strong>. Open it in this browser
                  within 15 minutes.{" "}
                  {methods.outbox && (
                    <>
                      This demo keeps mail in the <a href={methods.outbox}>local outbox</a>.
                    </>
                  )}
                </div>
              )}
            </form>
          )}
        </div>
      )}
    </section>
  );
}
