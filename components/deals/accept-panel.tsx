"use client";

import Link from "next/link";
import { useState } from "react";
import { useSession } from "@/components/session-provider";
import { ApiError, apiFetch, errorMessage } from "@/lib/client/api";
import { disclosureRuleText } from "./disclosure-terms";
import { type DealJson, formatUsdc } from "./format";

// An open deal seen by a creator who is not on it yet: "Accept this deal". A creator who
// lost the race gets a plain explanation (409) and a way back to the open deals.
export function AcceptPanel({ deal, onAccepted }: { deal: DealJson; onAccepted(): Promise<void> }) {
  const { user, setRole } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [taken, setTaken] = useState(false);
  const [needsWallet, setNeedsWallet] = useState(false);

  if (deal.status !== "open") return null;

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      // The version of the terms shown on this page: an edit since then is refused (409).
      await apiFetch(`/api/deals/${deal.id}/accept`, {
        body: { termsVersion: deal.termsVersion },
      });
      await onAccepted();
    } catch (err) {
      if (err instanceof ApiError && err.code === "wallet_required") setNeedsWallet(true);
      else if (err instanceof ApiError && err.code === "terms_changed") {
        // Show the new terms; the message stays until the creator takes them.
        setError(err.message);
        await onAccepted();
      } else if (err instanceof ApiError && (err.code === "invalid_state" || err.status === 404))
        setTaken(true);
      else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function becomeCreator() {
    setBusy(true);
    setError(null);
    try {
      await setRole("creator");
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (taken)
    return (
      <section className="card stack" data-testid="deal-taken">
        <div className="alert error" role="alert">
          Someone else took this deal just before you. It is no longer open.
        </div>
        <div className="row">
          <Link className="btn" href="/creator#open-deals">
            Back to open deals
          </Link>
        </div>
      </section>
    );

  const isCreator = user?.profileType === "creator";
  const noWallet = isCreator && (needsWallet || !user?.walletAddress);
  return (
    <section className="card stack accept" data-testid="accept-panel">
      <h2>{deal.inviteEmail ? "You are invited to this deal" : "This deal is open"}</h2>
      <p className="muted">
        Accept it to become the deal&apos;s creator. You then submit your post for each milestone;
        an AI checks it against the requirements below and the escrow pays you in USDC — the
        milestone&apos;s amount × the verdict&apos;s score.
        {deal.disclosure.required
          ? ` Each post must also disclose the partnership: ${disclosureRuleText}.`
          : " This deal does not require a disclosure (see the brand’s reason above)."}
      </p>
      {deal.escrow.funded && (
        <p className="small ok-text" data-testid="escrow-funded">
          The brand has locked {formatUsdc(deal.escrow.locked)} in the escrow for this deal: it can
          only be paid to the creator who takes it, or back to the brand.
        </p>
      )}
      {noWallet && (
        <div
          className={needsWallet ? "alert error spread" : "alert warn spread"}
          role={needsWallet ? "alert" : "status"}
          data-testid="accept-wallet-required"
        >
          <span>
            <strong>Link a wallet first.</strong> The escrow records your payout address when you
            take the deal, so you need a wallet you have proven is yours.
          </span>
          <Link className="btn small" href="/wallet">
            Link a wallet
          </Link>
        </div>
      )}
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        {isCreator ? (
          <button type="button" className="btn" onClick={accept} disabled={busy}>
            {busy ? "Accepting…" : "Accept this deal"}
          </button>
        ) : (
          <>
            <span className="muted small">Only creators can take deals.</span>
            <button type="button" className="btn" onClick={becomeCreator} disabled={busy}>
              {busy ? "Switching…" : "Switch to creator"}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
