"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { apiFetch, errorMessage, type User } from "@/lib/client/api";
import {
  type DealJson,
  dealLabel,
  dealTone,
  formatDate,
  formatUnitsUsdc,
  formatUsdc,
  paidCount,
  paymentState,
  platformLabel,
  progressText,
  stuckPayments,
  toUnits,
} from "./format";
import { DealListControls, LoadMore } from "./list-controls";
import { ListSkeleton } from "./list-skeleton";
import { Badge, Fact, Facts, ProgressBar } from "./parts";
import {
  type DealFilters,
  type DealListPage,
  isFiltered,
  noFilters,
  useDealList,
} from "./use-deal-list";

// The brand's dashboard: their deals with status, budget (locked in escrow, paid to the
// creator, returned to the brand), creator and milestone progress; search, filters and
// "load more"; an empty state offers a blank deal or the three starter deals, which start
// unfunded. The first page comes rendered from the server (app/brand/page.tsx).

export function BrandDashboard({ user, initial }: { user: User; initial: DealListPage }) {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<DealFilters>(noFilters);
  const list = useDealList("mine", filters, initial);
  const [seeding, setSeeding] = useState(false);
  const [seedError, setSeedError] = useState<string | null>(null);
  const deals = list.deals.filter((d) => d.brandId === user.id);
  const filtered = isFiltered(filters);

  async function addStarterDeals() {
    setSeeding(true);
    setSeedError(null);
    try {
      await apiFetch("/api/demo/ensure-deals", { method: "POST" });
      await queryClient.invalidateQueries({ queryKey: ["deals"] });
    } catch (err) {
      setSeedError(errorMessage(err));
    } finally {
      setSeeding(false);
    }
  }

  const sum = (pick: (d: DealJson) => string) =>
    deals.reduce((total, d) => total + toUnits(pick(d)), 0n);
  const locked = sum((d) => d.escrow.locked);
  const released = sum((d) => d.escrow.released);
  const refunded = sum((d) => d.escrow.refunded);
  const unfunded = deals.filter((d) => d.status === "unfunded").length;
  const nothingYet = deals.length === 0 && !filtered && !list.isPending && !list.isError;

  return (
    <div className="stack">
      <div className="spread">
        <div>
          <h1>Your deals</h1>
          <p className="muted small">
            {deals.length > 0 ? (
              <span data-testid="brand-totals">
                {deals.length} {deals.length === 1 ? "deal" : "deals"} · {formatUnitsUsdc(locked)}{" "}
                locked · {formatUnitsUsdc(released)} paid to creators · {formatUnitsUsdc(refunded)}{" "}
                returned to you
              </span>
            ) : (
              "Post a deal, fund its escrow, let a creator take it, and pay each milestone once the AI has checked it."
            )}
          </p>
        </div>
        {!nothingYet && (
          <Link className="btn" href="/brand/deals/new">
            Create a deal
          </Link>
        )}
      </div>

      {unfunded > 0 && !filtered && (
        <div className="alert" role="status" data-testid="unfunded-note">
          {unfunded === 1 ? "One deal is" : `${unfunded} deals are`} waiting for funding. Creators
          see a deal once its budget is locked in the escrow: open it and fund it from your wallet.
        </div>
      )}

      {seedError && (
        <div className="alert error" role="alert">
          {seedError}
        </div>
      )}

      {!nothingYet && <DealListControls value={filters} onChange={setFilters} viewer="brand" />}

      {list.isPending || seeding ? (
        <ListSkeleton label={seeding ? "Adding the starter deals…" : "Loading your deals"} />
      ) : list.isError ? (
        <div className="alert error stack" role="alert">
          <span>Your deals could not be loaded: {errorMessage(list.error)}</span>
          <div>
            <button
              type="button"
              className="btn small secondary"
              onClick={() => void list.refetch()}
            >
              Try again
            </button>
          </div>
        </div>
      ) : nothingYet ? (
        <div className="empty stack" data-testid="brand-empty">
          <h2>No deals yet</h2>
          <p>
            Create your own deal with milestones and requirements, or start from three ready-made
            examples (Instagram, TikTok and X). Fund a deal&apos;s escrow from your wallet and
            creators can take it straight away.
          </p>
          <div className="row center">
            <Link className="btn" href="/brand/deals/new">
              Create a deal
            </Link>
            <button type="button" className="btn secondary" onClick={addStarterDeals}>
              Add the three starter deals
            </button>
          </div>
        </div>
      ) : deals.length === 0 ? (
        <div className="empty" data-testid="brand-no-match">
          No deals match these filters.
        </div>
      ) : (
        <ul className="deal-list" data-testid="brand-deals">
          {deals.map((deal) => (
            <li key={deal.id}>
              <BrandDealCard deal={deal} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore
        shown={deals.length}
        hasMore={list.hasNextPage}
        loading={list.isFetchingNextPage}
        onMore={() => void list.fetchNextPage()}
      />
    </div>
  );
}

function BrandDealCard({ deal }: { deal: DealJson }) {
  const toReview = deal.milestones.filter((m) => m.status === "submitted").length;
  const stuck = stuckPayments(deal);
  const anyFailed = stuck.some((m) => paymentState(m.settlement) === "failed");
  const creator = deal.creator
    ? deal.creator.name
    : deal.status === "unfunded"
      ? "Not visible to creators until funded"
      : deal.status === "cancelled" || deal.status === "expired"
        ? "Nobody took it"
        : deal.inviteEmail
          ? `Invited ${deal.inviteEmail} — waiting for them to accept`
          : "Open — waiting for a creator";
  return (
    <article className="card stack tight" data-testid="deal-card">
      <div className="spread top">
        <div>
          <h3>
            <Link href={`/deals/${deal.id}`}>{deal.title}</Link>
          </h3>
          <p className="muted small">
            {platformLabel(deal.platform)} · created {formatDate(deal.createdAt)}
          </p>
        </div>
        <span className="row tight deal-flags">
          {stuck.length > 0 && (
            <Badge tone={anyFailed ? "bad" : "warn"} testId="deal-payment-flag" plain>
              {anyFailed ? "Payment failed" : "Payment delayed"}
            </Badge>
          )}
          <Badge tone={dealTone(deal.status)} testId="deal-status" plain>
            {dealLabel(deal.status, "brand")}
          </Badge>
        </span>
      </div>
      <Facts>
        <Fact label="Budget">{formatUsdc(deal.budget)}</Fact>
        <Fact label="Locked in escrow">
          <span data-testid="card-locked">
            {deal.escrow.funded ? (
              formatUsdc(deal.escrow.locked)
            ) : (
              <span className="muted">Not funded</span>
            )}
          </span>
        </Fact>
        {deal.escrow.funded && (
          <>
            <Fact label="Paid to the creator">
              <span data-testid="card-paid">{formatUsdc(deal.escrow.released)}</span>
            </Fact>
            <Fact label="Returned to you">
              <span data-testid="card-refunded">{formatUsdc(deal.escrow.refunded)}</span>
            </Fact>
          </>
        )}
        <Fact label="Creator" wide>
          <span className={deal.creator ? "break" : "muted"} data-testid="deal-creator">
            {creator}
          </span>
        </Fact>
        <Fact label="Milestones">
          <span className="stack tight">
            <span data-testid="deal-progress">{progressText(deal)}</span>
            <ProgressBar
              done={paidCount(deal)}
              total={deal.milestones.length}
              label={`${deal.title}: ${progressText(deal)}`}
            />
          </span>
        </Fact>
      </Facts>
      {deal.status === "unfunded" && (
        <div className="alert warn spread">
          <span>Fund the escrow to publish this deal.</span>
          <Link className="btn small" href={`/deals/${deal.id}`}>
            Fund
          </Link>
        </div>
      )}
      {stuck.length > 0 && (
        <div className={anyFailed ? "alert error spread" : "alert warn spread"} role="status">
          <span>
            {stuck.length === 1 ? "A milestone's payment is" : `${stuck.length} payments are`}{" "}
            {anyFailed
              ? "not going through. Retry it on the deal page; it never pays twice."
              : "delayed: the blockchain has not confirmed it. It is retried automatically, or retry it on the deal page; it never pays twice."}
          </span>
          <Link className="btn small" href={`/deals/${deal.id}`}>
            Open deal
          </Link>
        </div>
      )}
      {toReview > 0 && (
        <div className="alert spread">
          <span>
            {toReview === 1 ? "A deliverable is" : `${toReview} deliverables are`} waiting for your
            review.
          </span>
          <Link className="btn small" href={`/deals/${deal.id}`}>
            Review
          </Link>
        </div>
      )}
    </article>
  );
}
