"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { type ReactNode, useRef, useState } from "react";
import { useSession } from "@/components/session-provider";
import { dashboardPath, errorMessage, roleLabel } from "@/lib/client/api";
import { shortAddress } from "@/lib/client/chain-info";

// The header's navigation and account area: the signed-in user's everyday pages (their
// dashboard first, then inbox, wallet, payments, and the API docs), an "Account" menu with
// the account's own pages (profile, API keys, webhooks, settings), who is signed in and in
// which role, a role switch (creator ↔ brand) and sign-out. Signed out: the
// API docs and "Sign in". While the session is being restored it shows a placeholder rather than
// flashing "Sign in".

export function AccountMenu({ inbox, docs }: { inbox: ReactNode; docs: ReactNode }) {
  const { user, status, setRole, signOut } = useSession();
  const router = useRouter();
  const pathname = usePathname();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The account menu is a native disclosure (<details>): keyboard and screen readers get it
  // for free. It closes when one of its pages is picked (the header stays mounted across
  // client navigations) and on Escape.
  const accountPages = useRef<HTMLDetailsElement>(null);
  const closeAccountPages = () => {
    if (accountPages.current) accountPages.current.open = false;
  };

  if (status === "loading")
    return (
      <>
        {docs}
        <span
          className="skeleton"
          style={{ display: "inline-block", width: "12rem", height: "2rem" }}
          role="status"
          aria-label="Loading account"
        />
      </>
    );

  if (!user) {
    // The home and sign-in pages carry their own sign-in call to action.
    if (pathname === "/" || pathname === "/sign-in") return docs;
    return (
      <>
        {docs}
        <Link className="btn small" href="/sign-in">
          Sign in
        </Link>
      </>
    );
  }

  const other = user.profileType === "organization" ? "creator" : "organization";

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const switchRole = () =>
    run(async () => {
      const updated = await setRole(other);
      // On a role's dashboard, follow the switch to the other one.
      if (pathname.startsWith("/brand") || pathname.startsWith("/creator"))
        router.push(dashboardPath(updated.profileType));
    });

  const leave = () =>
    run(async () => {
      await signOut();
      router.push("/");
    });

  return (
    <>
      <Link href={dashboardPath(user.profileType)}>Dashboard</Link>
      {inbox}
      <Link href="/wallet">Wallet</Link>
      <Link href="/ledger">Payments</Link>
      {docs}
      <details
        className="account-pages"
        ref={accountPages}
        data-testid="account-pages"
        onKeyDown={(e) => {
          if (e.key === "Escape") closeAccountPages();
        }}
      >
        <summary>Account</summary>
        <div className="account-pages-panel">
          <Link href="/profile" onClick={closeAccountPages}>
            Profile
          </Link>
          <Link href="/settings/keys" onClick={closeAccountPages}>
            API keys
          </Link>
          <Link href="/settings/webhooks" onClick={closeAccountPages}>
            Webhooks
          </Link>
          <Link href="/settings" onClick={closeAccountPages}>
            Settings
          </Link>
        </div>
      </details>
      <div className="account-menu" data-testid="account-menu">
        <span className="small account-email" title={user.email} data-testid="account-email">
          {/* An account made by a wallet alone has a placeholder address: show the wallet. */}
          {user.email.endsWith("@wallet.invalid") && user.walletAddress
            ? shortAddress(user.walletAddress)
            : user.email}
        </span>
        <span className="badge" data-testid="account-role" title={user.email}>
          {roleLabel(user.profileType)}
        </span>
        <button type="button" className="btn small secondary" onClick={switchRole} disabled={busy}>
          Switch to {roleLabel(other).toLowerCase()}
        </button>
        <button type="button" className="btn small ghost" onClick={leave} disabled={busy}>
          Sign out
        </button>
        {error && (
          <span className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
    </>
  );
}
