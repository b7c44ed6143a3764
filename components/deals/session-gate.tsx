"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useState } from "react";
import { useSession } from "@/components/session-provider";
import { errorMessage, type ProfileType, roleLabel, type User } from "@/lib/client/api";

// Renders its children for a signed-in user (in the `requires` role, when given). Otherwise a prompt:
// a sign-in link for visitors, a one-click role switch for a user in the other role.

type Props = {
  /** The role the page is for; omitted, any signed-in user. */
  requires?: ProfileType;
  /** What the page is, for the prompts: "the brand dashboard", "this deal". */
  what: string;
  /**
   * What to render for the user: a function of the user (from client components), or plain
   * elements (from server components, which cannot pass functions to a client component).
   */
  children: ReactNode | ((user: User) => ReactNode);
};

export function SessionGate({ requires, what, children }: Props) {
  const { user, status, error, refresh } = useSession();
  const pathname = usePathname();

  if (status === "loading") return <PageSkeleton />;

  if (!user)
    return (
      <section className="card stack narrow" data-testid="sign-in-prompt">
        <h1>Sign in to see {what}</h1>
        {error ? (
          <div className="alert error" role="alert">
            {error}{" "}
            <button type="button" className="btn small secondary" onClick={() => void refresh()}>
              Try again
            </button>
          </div>
        ) : (
          <p className="muted">
            Milestone keeps your deals private to you and the other party. Sign in (or create an
            account) to continue.
          </p>
        )}
        <div className="row">
          <Link className="btn" href={`/sign-in?next=${encodeURIComponent(pathname)}`}>
            Sign in
          </Link>
          <Link className="btn ghost" href="/">
            What is Milestone?
          </Link>
        </div>
      </section>
    );

  if (requires && user.profileType !== requires) return <WrongRole role={requires} what={what} />;

  return <>{typeof children === "function" ? children(user) : children}</>;
}

function WrongRole({ role, what }: { role: ProfileType; what: string }) {
  const { user, setRole } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  async function switchRole() {
    setBusy(true);
    setError(null);
    try {
      await setRole(role);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <section className="card stack narrow" data-testid="wrong-role">
      <h1>This is {what}</h1>
      <p className="muted">
        You are signed in as a <strong>{roleLabel(user.profileType).toLowerCase()}</strong>.{" "}
        {role === "organization"
          ? "Switch to the brand role to post deals and pay creators."
          : "Switch to the creator role to take deals and submit your work."}{" "}
        You can switch back at any time.
      </p>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn" onClick={switchRole} disabled={busy}>
          {busy ? "Switching…" : `Switch to ${roleLabel(role).toLowerCase()}`}
        </button>
      </div>
    </section>
  );
}

/** A placeholder in the shape of a page: a heading and a few cards. */
export function PageSkeleton({ cards = 3 }: { cards?: number }) {
  return (
    <div className="stack" role="status" aria-label="Loading">
      <div className="skeleton" style={{ width: "14rem", height: "1.8rem" }} />
      {Array.from({ length: cards }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="skeleton" style={{ height: "6.5rem" }} />
      ))}
    </div>
  );
}
