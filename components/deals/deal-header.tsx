"use client";

import Link from "next/link";
import { LinkPendingLabel } from "@/components/link-pending-label";
import { ReputationBadge, useChainInfo } from "@/components/wallet";
import { addressUrl, shortAddress } from "@/lib/client/chain-info";
import { DisclosureTerms } from "./disclosure-terms";
import { AddressLink, EscrowMoney, TxLink } from "./escrow-views";
import {
  cancellable,
  type DealJson,
  dealLabel,
  dealTone,
  formatDate,
  formatScore,
  formatUsdc,
  paidCount,
  platformLabel,
  progressText,
} from "./format";
import type { Viewer } from "./milestone-card";
import { useDealPageSeed } from "./page-seed";
import { Badge, Fact, Facts, ProgressBar } from "./parts";

// The top of the deal page: what the deal is, its money (locked in the escrow, paid to the
// creator, returned to the brand) and who is on it.
export function DealHeader({ deal, viewer }: { deal: DealJson; viewer: Viewer }) {
  const creator = deal.creator ? (
    <span className="stack tight">
      <span className="break">{deal.creator.name}</span>
      {viewer !== "prospect" && (
        <CreatorWallet wallet={deal.creator.walletAddress} forBrand={viewer === "brand"} />
      )}
    </span>
  ) : deal.status === "unfunded" ? (
    <span className="muted">
      {deal.inviteEmail ? `Invited ${deal.inviteEmail} — ` : ""}Not visible to creators until funded
    </span>
  ) : deal.status === "cancelled" || deal.status === "expired" ? (
    <span className="muted">Nobody took it</span>
  ) : deal.inviteEmail ? (
    <span className="muted break">Invited {deal.inviteEmail} — not accepted yet</span>
  ) : (
    <span className="muted">Open — waiting for a creator</span>
  );

  return (
    <section className="card stack" data-testid="deal-header">
      <div className="spread top">
        <div className="stack tight">
          <h1>{deal.title}</h1>
          <div className="row tight">
            <Badge tone={dealTone(deal.status)} testId="deal-status" plain>
              {dealLabel(deal.status, viewer)}
            </Badge>
            <Badge tone="neutral">{platformLabel(deal.platform)}</Badge>
            {viewer === "brand" && <span className="badge neutral plain">Your deal</span>}
          </div>
        </div>
        {/* Nobody has taken it yet (the same rule as cancel): the brand may still change it. */}
        {viewer === "brand" && cancellable(deal) && (
          <Link
            className="btn small secondary"
            href={`/deals/${deal.id}/edit`}
            data-testid="edit-deal"
          >
            {/* The edit page has no loading.tsx (so a missing deal answers a real 404): the
                link itself says the page is on its way. */}
            <LinkPendingLabel label="Edit deal" pending="Opening…" />
          </Link>
        )}
      </div>
      {deal.description && <p className="muted pre-line">{deal.description}</p>}
      <Facts>
        <Fact label="Budget">
          <span className="stack tight">
            <span data-testid="deal-budget">{formatUsdc(deal.budget)}</span>
            <span className="muted small">
              {!deal.escrow.funded
                ? "not funded yet"
                : Number(deal.escrow.locked) > 0
                  ? "funded in escrow"
                  : "escrow closed"}
            </span>
          </span>
        </Fact>
        <Fact label="Milestones">
          <span className="stack tight">
            <span>{progressText(deal)}</span>
            <ProgressBar
              done={paidCount(deal)}
              total={deal.milestones.length}
              label={progressText(deal)}
            />
          </span>
        </Fact>
        <Fact label="Minimum score">
          <span title="Payouts need an approved verdict with at least this score">
            {formatScore(deal.minScore)}
          </span>
        </Fact>
        <Fact label="Auto-settle threshold">
          <span title="A verdict the verifier is less sure of than this is not paid automatically: the brand decides">
            {formatScore(deal.autoSettleConfidence)}
          </span>
        </Fact>
        <Fact label="Disclosure" wide>
          <DisclosureTerms disclosure={deal.disclosure} />
        </Fact>
        <Fact label="Brand" wide>
          <span className="break">{deal.brand?.name ?? "—"}</span>
        </Fact>
        <Fact label="Creator" wide>
          {creator}
        </Fact>
        <Fact label="Deadline">
          <span className="stack tight">
            <span>{formatDate(deal.escrow.deadline)}</span>
            <span
              className="muted small"
              title="Unpaid milestones can go back to the brand after this"
            >
              refundable after {formatDate(deal.escrow.refundableAt)}
            </span>
          </span>
        </Fact>
        {deal.escrow.address && (
          <Fact label="Escrow">
            <span className="stack tight">
              <AddressLink address={deal.escrow.address} />
              {deal.escrow.fundingTxHash && (
                <TxLink hash={deal.escrow.fundingTxHash} testId="funding-tx">
                  Funding transaction
                </TxLink>
              )}
            </span>
          </Fact>
        )}
      </Facts>
      {deal.escrow.funded && <EscrowMoney deal={deal} viewer={viewer} />}
    </section>
  );
}

/**
 * Where the creator is paid (linked to the explorer) and their on-chain track record; for
 * the brand, whether they can be paid yet.
 */
function CreatorWallet({ wallet, forBrand }: { wallet: string | null; forBrand: boolean }) {
  const info = useChainInfo();
  const reputation = useDealPageSeed().reputation;
  if (!wallet)
    return !forBrand ? null : (
      <span className="small warn-text">
        No wallet linked yet — they must link one before you can pay them.
      </span>
    );
  return (
    <span className="row tight small">
      <Link className="mono" href={addressUrl(info, wallet)} title={wallet}>
        {shortAddress(wallet)}
      </Link>
      <ReputationBadge wallet={wallet} seed={reputation[wallet.toLowerCase()]} />
    </span>
  );
}
