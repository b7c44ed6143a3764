"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { Suspense, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";
import type { DealEventJson } from "@/lib/events/events";
import { describeEvent, type EventActor } from "@/lib/notify/describe";
import { TxLink } from "./escrow-views";
import { type DealJson, formatDate } from "./format";
import { useDealPageSeed, useSeed } from "./page-seed";

// The deal's activity log as a timeline, oldest first: every funding, submission (each
// revision), verdict, appeal, decision and payment, with who did it. Read from
// GET /api/deals/:id/events a page at a time; it refreshes whenever the deal changes. The
// first page streams in with the page's HTML (app/deals/[id]/load-deal-seed.ts) for the deal
// as the server rendered it; until it arrives the section says it is loading.

const EVENT_ICONS: Record<string, string> = {
  created: "✚",
  edited: "✎",
  funded: "⬇",
  taken: "→",
  submitted: "↑",
  verified: "✓",
  rejected: "✕",
  approved: "✓",
  paid: "$",
  refunded: "↩",
  cancelled: "⦸",
  expired: "⌛",
  completed: "★",
  appealed: "⚑",
  decided: "⚖",
  overdue: "⏰",
  review_window_elapsed: "⏰",
  "deposit.received": "⬇",
  "funding.returned": "↩",
  "draft.submitted": "✍",
  "draft.approved": "✓",
  "draft.changes_requested": "↺",
  "milestone.changes_requested": "✎",
  "message.created": "✉",
  "bonus.funded": "⬇",
  "bonus.paid": "♥",
};

export function DealTimeline({ deal }: { deal: DealJson }) {
  return (
    <Suspense
      fallback={
        <section className="card stack" aria-labelledby="timeline-title" data-testid="timeline">
          <h2 id="timeline-title">Activity</h2>
          <p className="muted small" aria-busy="true">
            Loading the activity…
          </p>
        </section>
      }
    >
      <Timeline deal={deal} />
    </Suspense>
  );
}

function Timeline({ deal }: { deal: DealJson }) {
  // Anything that changes the deal adds events: refetch when its state moves.
  const version = [
    deal.status,
    deal.paid,
    ...deal.milestones.map((m) => `${m.status}:${m.deliverable?.revision ?? 0}`),
  ].join("|");
  const seeded = useSeed(useDealPageSeed().events);
  const [seed] = useState(() => (seeded ? { version, page: seeded } : null));
  const events = useInfiniteQuery({
    queryKey: ["deal-events", deal.id, version],
    // The server's first page, for the deal's state it was read with (a later state reads anew).
    initialData:
      seed && seed.version === version ? { pages: [seed.page], pageParams: [""] } : undefined,
    staleTime: 10_000,
    queryFn: ({ pageParam }) =>
      apiFetch<{ events: DealEventJson[]; nextCursor: string | null }>(
        `/api/deals/${deal.id}/events?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = events.data?.pages.flatMap((p) => p.events) ?? [];
  const actorOf = (e: DealEventJson): EventActor =>
    e.actor?.id === deal.brandId
      ? "brand"
      : e.actor?.id && e.actor.id === deal.creatorId
        ? "creator"
        : "service";
  const titleOf = (id: string | null) => deal.milestones.find((m) => m.id === id)?.title ?? null;

  return (
    <section className="card stack" aria-labelledby="timeline-title" data-testid="timeline">
      <h2 id="timeline-title">Activity</h2>
      {events.isPending && <p className="muted small">Loading the activity…</p>}
      {events.isError && (
        <div className="alert error small" role="alert">
          Could not load the activity: {errorMessage(events.error)}{" "}
          <button type="button" className="btn small ghost" onClick={() => void events.refetch()}>
            Try again
          </button>
        </div>
      )}
      {!events.isPending && items.length === 0 && !events.isError && (
        <p className="muted small">Nothing has happened yet.</p>
      )}
      <ol className="activity">
        {items.map((e) => {
          const text = describeEvent({
            type: e.type,
            data: e.data,
            dealTitle: deal.title,
            milestoneTitle: titleOf(e.milestoneId),
            actor: actorOf(e),
            brandName: deal.brand?.name ?? null,
            creatorName: deal.creator?.name ?? null,
          });
          const txHash = typeof e.data.txHash === "string" ? e.data.txHash : null;
          return (
            <li key={e.id} className="activity-item" data-testid="timeline-item" data-type={e.type}>
              <span className="activity-icon" aria-hidden="true">
                {EVENT_ICONS[e.type] ?? "•"}
              </span>
              <div className="stack tight">
                <span>{text.title}</span>
                {text.detail && !txHash && (
                  <span className="muted small activity-detail">{text.detail}</span>
                )}
                {txHash && (
                  <span className="small">
                    <TxLink hash={txHash} />
                  </span>
                )}
                <time className="muted small" dateTime={e.createdAt}>
                  {formatDate(e.createdAt, true)}
                </time>
              </div>
            </li>
          );
        })}
      </ol>
      {events.hasNextPage && (
        <button
          type="button"
          className="btn secondary small"
          onClick={() => void events.fetchNextPage()}
          disabled={events.isFetchingNextPage}
        >
          {events.isFetchingNextPage ? "Loading…" : "Show more"}
        </button>
      )}
    </section>
  );
}
