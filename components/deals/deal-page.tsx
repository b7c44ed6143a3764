"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import type { User } from "@/lib/client/api";
import { AcceptPanel } from "./accept-panel";
import { BonusPanel } from "./bonus-panel";
import { DealHeader } from "./deal-header";
import { DealTimeline } from "./deal-timeline";
import { EscrowActions } from "./escrow-actions";
import { TxLink } from "./escrow-views";
import { type DealJson, formatUsdc } from "./format";
import { type FundedNotice, FundingPanel } from "./funding-panel";
import { MessagesPanel } from "./messages-panel";
import { MilestoneCard, type Viewer } from "./milestone-card";
import { useDealPageSeed } from "./page-seed";
import { useDeal, useRelayStatus } from "./queries";

// The deal page for both parties. The brand funds the escrow, verifies and settles each
// milestone, and may cancel an untaken deal or reclaim expired milestones; the creator
// submits deliverables and sees verdicts and payouts; any other creator sees an open deal
// with "Accept". The page arrives rendered with the deal (app/deals/[id]/page.tsx); while
// something is in flight it polls the deal, and it reads it again when the tab comes back.

export function DealPage({
  initial,
  user,
  onrampTemplate = null,
}: {
  initial: DealJson;
  user: User;
  /** The card on-ramp's URL template (ONRAMP_URL), for the funding panel; null: none. */
  onrampTemplate?: string | null;
}) {
  const { deal, error, reload } = useDeal(initial.id, initial, (d) => inFlight(d, user));
  const viewer = viewerOf(deal, user);
  const relay = useRelayStatus(viewer === "brand", useDealPageSeed().relay);
  const [funded, setFunded] = useState<FundedNotice | null>(null);

  // A payout also changes the creator's on-chain reputation: read it again.
  const queryClient = useQueryClient();
  const paid = deal.paid;
  useEffect(() => {
    if (paid !== undefined) void queryClient.invalidateQueries({ queryKey: ["reputation"] });
  }, [paid, queryClient]);

  return (
    <div className="stack" data-testid="deal-page" data-viewer={viewer}>
      <BackLink user={user} ghost />
      <DealHeader deal={deal} viewer={viewer} />
      {funded && deal.status === "open" && (
        <div className="alert ok spread" role="status" data-testid="funded-notice">
          <span>
            <strong>{formatUsdc(funded.total)}</strong> is locked in the escrow. The deal is open:
            creators can see it and take it now.
          </span>
          {funded.txHash && <TxLink hash={funded.txHash} />}
        </div>
      )}
      {viewer === "brand" && deal.status === "unfunded" && (
        <FundingPanel
          deal={deal}
          relay={relay}
          onrampTemplate={onrampTemplate}
          onFunded={async (notice) => {
            setFunded(notice);
            await reload();
          }}
        />
      )}
      {viewer === "brand" && <EscrowActions deal={deal} onChanged={reload} />}
      {viewer === "prospect" && <AcceptPanel deal={deal} onAccepted={reload} />}
      {viewer === "creator" && <CreatorBanner deal={deal} />}
      {error && (
        <div className="alert error" role="alert">
          Could not refresh the deal: {error.message}
        </div>
      )}
      <h2>Milestones</h2>
      {deal.milestones.map((m, index) => (
        <MilestoneCard
          key={m.id}
          index={index}
          deal={deal}
          milestone={m}
          viewer={viewer}
          relay={relay}
          onChanged={reload}
        />
      ))}
      {(viewer === "brand" || viewer === "creator") && (
        <BonusPanel deal={deal} viewer={viewer} relay={relay} onChanged={reload} />
      )}
      {(viewer === "brand" || viewer === "creator") && (
        <MessagesPanel deal={deal} viewer={viewer} />
      )}
      {(viewer === "brand" || viewer === "creator") && <DealTimeline deal={deal} />}
    </div>
  );
}

const viewerOf = (deal: DealJson, user: User): Viewer =>
  deal.brandId === user.id ? "brand" : deal.creatorId === user.id ? "creator" : "prospect";

/** Something is under way: a payout (both sides), or a submission awaiting the brand (creator). */
const inFlight = (deal: DealJson, user: User) =>
  deal.milestones.some(
    (m) =>
      m.status === "approved" || (viewerOf(deal, user) === "creator" && m.status === "submitted"),
  );

function BackLink({ user, ghost }: { user: User; ghost?: boolean }) {
  const brand = user.profileType === "organization";
  return (
    <Link className={ghost ? "back-link" : "btn secondary"} href={brand ? "/brand" : "/creator"}>
      {ghost ? "← " : ""}
      {brand ? "Your deals" : "Your dashboard"}
    </Link>
  );
}

/** The creator's standing on this deal: a wallet to be paid into, and what was paid. */
function CreatorBanner({ deal }: { deal: DealJson }) {
  const paid = Number(deal.paid);
  if (!deal.creator?.walletAddress)
    return (
      <div className="alert warn spread" role="status" data-testid="wallet-missing">
        <span>
          <strong>Link a wallet to get paid.</strong> Payouts go to a wallet you have proven is
          yours; the brand cannot pay you until you link one.
        </span>
        <Link className="btn small" href="/wallet">
          Link a wallet
        </Link>
      </div>
    );
  // With one milestone, its own "You were paid" says it all.
  if (paid > 0 && deal.milestones.length > 1)
    return (
      <div className="alert ok" role="status">
        You have been paid <strong>{formatUsdc(deal.paid)}</strong> on this deal so far.
      </div>
    );
  return null;
}
