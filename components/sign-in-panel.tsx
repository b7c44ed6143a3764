"use client";

import dynamic from "next/dynamic";
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
import { postToAuth, SignInError } from "@/lib/client/web-sign-in";

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
  /** Sign-In with Ethereum (the page's layout then mounts the wallet stack). */
  siwe: boolean;
};

// The wallet stack (wagmi) loads only when that method is offered.
const SiweSignIn = dynamic(() => import("@/components/siwe-sign-in").then((m) => m.SiweSignIn), {
  ssr: false,
});

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
  EmailSignin: "The sign-in e-mail could not be sent. Please try again in a moment.",
  nonce_used:
    "That message was already used, has expired, or was asked for in another browser. Try again.",
  message_domain_mismatch: "The message was for another site.",
  message_expired: "The message has expired. Try again.",
  invalid_signature: "The signature does not match the wallet.",
  account_exists:
    "An account with this e-mail already exists. Sign in the way you did before; you can then add this way of signing in from your profile.",
};
const errorText = (code: string): string =>
  ERRORS[code] ?? "The sign-in did not complete. Please try again.";

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

  const showError = (err: unknown) =>
    setError(err instanceof SignInError ? errorText(err.code) : errorMessage(err));

  async function continueWithOidc() {
    setBusy(true);
    setError(null);
    try {
      window.location.assign((await postToAuth("signin/oidc", { callbackUrl, role })).toString());
    } catch (err) {
      showError(err);
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
      await postToAuth("signin/email", { callbackUrl, role, email });
      setSentTo(email);
    } catch (err) {
      showError(err);
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

  const none = !methods.oidc && !methods.email && !methods.siwe;
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
          {methods.siwe && (methods.oidc || methods.email) && (
            <p className="or-divider muted small">or, with a wallet</p>
          )}
          {methods.siwe && (
            <SiweSignIn
              role={role}
              callbackUrl={callbackUrl}
              onError={(code, message) =>
                setError(code === null ? null : (message ?? errorText(code)))
              }
            />
          )}
        </div>
      )}
    </section>
  );
}
