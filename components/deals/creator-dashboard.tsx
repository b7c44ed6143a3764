"use client";

import Link from "next/link";
import { type ComponentType, useEffect, useState } from "react";
import type { State } from "wagmi";
import { useSession } from "@/components/session-provider";
import { errorMessage, type User } from "@/lib/client/api";
import type { PublicChainInfo } from "@/lib/client/chain-info";
import {
  type DealJson,
  dealLabel,
  dealTone,
  formatUsdc,
  type MilestoneJson,
  paidCount,
  platformLabel,
  progressText,
} from "./format";
import { DealListControls, LoadMore } from "./list-controls";
import { ListSkeleton } from "./list-skeleton";
import { Badge, Chips, ProgressBar } from "./parts";
import {
  type DealFilters,
  type DealListPage,
  isFiltered,
  noFilters,
  useDealList,
} from "./use-deal-list";

// The creator's dashboard: their deals with the next thing to do on each, the open deals
// they can browse (search, platform, order, "load more") and accept, and the payout wallet.
// The lists come rendered from the server (app/creator/page.tsx); the wallet panel and its
// wallet stack (wagmi) load after the page, so the deals do not wait for them.

type WalletBoot = { info: PublicChainInfo; initialState?: State };

type WalletPanelProps = WalletBoot & { title: string };

/**
 * The wallet panel, imported after the page has rendered (a plain dynamic import: its
 * chunk, with wagmi and viem, is not part of the page's first load).
 */
function LazyWallet(props: WalletPanelProps) {
  const [Panel, setPanel] = useState<ComponentType<WalletPanelProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import("./creator-wallet").then(
      (m) => live && setPanel(() => m.default),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  if (failed)
    return (
      <div className="alert error" role="alert">
        The wallet panel could not be loaded. Reload the page to try again.
      </div>
    );
  if (!Panel)
    return (
      <div
        className="skeleton"
        style={{ height: "9rem" }}
        role="status"
        aria-label="Loading your wallet"
      />
    );
  return <Panel {...props} />;
}

export function CreatorDashboard({
  user,
  mine,
  open,
  wallet,
}: {
  user: User;
  mine: DealListPage;
  open: DealListPage;
  wallet: WalletBoot;
}) {
  const { refresh } = useSession();
  // The wallet may have been linked elsewhere (the wallet page, another tab).
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // Without a payout wallet the panel comes first: nobody can pay the creator until it is
  // linked. Decided once, so the panel does not jump away the moment it is linked.
  const [walletFirst] = useState(!user.walletAddress);
  const panel = <LazyWallet {...wallet} title="Your payout wallet" />;

  return (
    <div className="stack">
      <div>
        <h1>Your work</h1>
        <p className="muted small">
          Take a deal, post your content, submit the link — you are paid in USDC as each milestone
          passes the AI check.
        </p>
      </div>
      {walletFirst && panel}
      <MyDeals user={user} initial={mine} />
      <OpenDeals initial={open} />
      {!walletFirst && panel}
    </div>
  );
}

function MyDeals({ user, initial }: { user: User; initial: DealListPage }) {
  const list = useDealList("mine", noFilters, initial);
  const deals = list.deals.filter((d) => d.creatorId === user.id);
  return (
    <section className="stack" aria-labelledby="my-deals">
      <h2 id="my-deals">My deals</h2>
      {list.isPending ? (
        <ListSkeleton label="Loading your deals" count={1} />
      ) : list.isError ? (
        <LoadError message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : deals.length === 0 ? (
        <div className="empty">
          You have not taken a deal yet. Pick one from the open deals below.
        </div>
      ) : (
        <ul className="deal-list" data-testid="my-deals">
          {deals.map((deal) => (
            <li key={deal.id}>
              <MyDealCard deal={deal} />
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
    </section>
  );
}

/** What the creator should do next on a deal, and where that button goes. */
function nextAction(deal: DealJson): { text: string; tone: "act" | "wait" | "done" } {
  if (deal.status === "expired" || deal.status === "cancelled")
    return {
      text: `Closed — ${formatUsdc(deal.escrow.released)} paid to you; unpaid milestones went back to the brand`,
      tone: "done",
    };
  const todo = deal.milestones.find((m) => m.status === "rejected" || m.status === "pending");
  if (todo)
    return todo.status === "rejected"
      ? { text: `Resubmit “${todo.title}” — see what was missing`, tone: "act" }
      : { text: `Submit deliverable for “${todo.title}”`, tone: "act" };
  if (deal.milestones.some((m) => m.status === "submitted"))
    return { text: "Waiting for the brand's review", tone: "wait" };
  if (deal.milestones.some((m) => m.status === "approved"))
    return { text: "Approved — your payment is on its way", tone: "wait" };
  return { text: `Paid ${formatUsdc(deal.paid)}`, tone: "done" };
}

function MyDealCard({ deal }: { deal: DealJson }) {
  const next = nextAction(deal);
  return (
    <article className="card stack tight" data-testid="my-deal">
      <div className="spread top">
        <div>
          <h3>
            <Link href={`/deals/${deal.id}`}>{deal.title}</Link>
          </h3>
          <p className="muted small break">
            {platformLabel(deal.platform)} · {deal.brand?.name ?? "brand"} · {formatUsdc(deal.paid)}{" "}
            of {formatUsdc(deal.budget)} paid
          </p>
        </div>
        <Badge tone={dealTone(deal.status)} plain>
          {dealLabel(deal.status, "creator")}
        </Badge>
      </div>
      <ProgressBar
        done={paidCount(deal)}
        total={deal.milestones.length}
        label={progressText(deal)}
      />
      <div className="spread">
        <span className={next.tone === "done" ? "ok-text" : next.tone === "act" ? "" : "muted"}>
          {next.tone === "act" ? <strong>{next.text}</strong> : next.text}
        </span>
        <Link
          className={next.tone === "act" ? "btn small" : "btn small secondary"}
          href={`/deals/${deal.id}`}
        >
          {next.tone === "act" ? "Open" : "View"}
        </Link>
      </div>
    </article>
  );
}

function OpenDeals({ initial }: { initial: DealListPage }) {
  const [filters, setFilters] = useState<DealFilters>(noFilters);
  const list = useDealList("open", filters, initial);
  const deals = list.deals;
  return (
    <section className="stack" aria-labelledby="open-deals-title" id="open-deals">
      <div className="spread">
        <h2 id="open-deals-title">Open deals</h2>
        <button
          type="button"
          className="btn small ghost"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          {list.isFetching && !list.isPending ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      <DealListControls value={filters} onChange={setFilters} viewer="creator" showStatus={false} />
      {list.isPending ? (
        <ListSkeleton label="Loading open deals" count={2} />
      ) : list.isError ? (
        <LoadError message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : deals.length === 0 ? (
        <div className="empty">
          {isFiltered(filters)
            ? "No open deals match these filters."
            : "No open deals right now — check back soon."}
        </div>
      ) : (
        <ul className="grid open-deals" data-testid="open-deals">
          {deals.map((deal) => (
            <li key={deal.id}>
              <OpenDealCard deal={deal} />
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
    </section>
  );
}

/** The distinct hashtags and mentions of a deal, and how many links and criteria. */
function requirementsSummary(milestones: MilestoneJson[]) {
  const tags = new Set<string>();
  let links = 0;
  let criteria = 0;
  for (const m of milestones) {
    for (const t of [...m.requirements.hashtags, ...m.requirements.mentions]) tags.add(t);
    links += m.requirements.links.length;
    criteria += m.requirements.criteria.length;
  }
  const extra = [
    links && `${links} ${links === 1 ? "link" : "links"}`,
    criteria && `${criteria} ${criteria === 1 ? "criterion" : "criteria"}`,
  ].filter(Boolean);
  return { tags: [...tags], extra: extra.join(" · ") };
}

function OpenDealCard({ deal }: { deal: DealJson }) {
  const summary = requirementsSummary(deal.milestones);
  const count = deal.milestones.length;
  return (
    <article className="card stack tight open-deal" data-testid="open-deal">
      <div className="spread top">
        <h3>{deal.title}</h3>
        {deal.inviteEmail && <Badge tone="ok">Invited you</Badge>}
      </div>
      <p className="row tight muted small">
        <Badge tone="neutral">{platformLabel(deal.platform)}</Badge>
        <span className="break">by {deal.brand?.name ?? "a brand"}</span>
      </p>
      <p>
        <strong>{formatUsdc(deal.budget)}</strong>{" "}
        <span className="muted small">
          · {count} {count === 1 ? "milestone" : "milestones"}
        </span>
      </p>
      {deal.escrow.funded && (
        <p className="small ok-text" title="The budget is locked in the escrow contract">
          ✓ Funded in escrow
        </p>
      )}
      <Chips items={summary.tags} />
      {summary.extra && <p className="muted small">{summary.extra}</p>}
      <div className="grow" />
      <Link className="btn" href={`/deals/${deal.id}`}>
        View &amp; accept
      </Link>
    </article>
  );
}

function LoadError({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <div className="alert error spread" role="alert">
      <span>Could not load: {message}</span>
      <button type="button" className="btn small secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
