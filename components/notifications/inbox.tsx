"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { SessionGate } from "@/components/deals/session-gate";
import { NOTIFICATIONS_CHANGED } from "@/components/notifications/unread-badge";
import { apiFetch, errorMessage } from "@/lib/client/api";

// The inbox: what the other party (or the service) did on your deals, newest first.
// Opening an item marks it read; "Mark all read" clears the count.

type Notification = {
  id: string;
  read: boolean;
  createdAt: string;
  title: string;
  detail: string | null;
  event: { type: string; dealId: string; milestoneId: string | null };
};
type Page = { notifications: Notification[]; nextCursor: string | null; unreadCount: number };

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function InboxList() {
  const [items, setItems] = useState<Notification[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [unread, setUnread] = useState(0);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      setLoading(true);
      try {
        const qs = new URLSearchParams({ limit: "20" });
        if (after) qs.set("cursor", after);
        if (unreadOnly) qs.set("unread", "true");
        const page = await apiFetch<Page>(`/api/notifications?${qs}`);
        setItems((prev) => (after ? [...prev, ...page.notifications] : page.notifications));
        setCursor(page.nextCursor);
        setUnread(page.unreadCount);
        setError(null);
      } catch (err) {
        setError(errorMessage(err));
      } finally {
        setLoading(false);
      }
    },
    [unreadOnly],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  async function markRead(body: { ids: string[] } | { all: true }) {
    try {
      const res = await apiFetch<{ unreadCount: number }>("/api/notifications/read", { body });
      setUnread(res.unreadCount);
      setItems((prev) =>
        prev.map((n) => ("all" in body || body.ids.includes(n.id) ? { ...n, read: true } : n)),
      );
      window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <section className="stack" aria-labelledby="inbox-title">
      <div className="spread">
        <h1 id="inbox-title">Inbox</h1>
        <p className="muted" aria-live="polite" data-testid="inbox-unread">
          {unread === 0 ? "Nothing unread" : `${unread} unread`}
        </p>
      </div>
      <div className="row">
        <label className="radio small">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(e) => setUnreadOnly(e.target.checked)}
          />
          Unread only
        </label>
        <button
          type="button"
          className="btn small secondary"
          onClick={() => void markRead({ all: true })}
          disabled={unread === 0}
        >
          Mark all read
        </button>
      </div>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      {!loading && items.length === 0 && !error && (
        <p className="empty">
          {unreadOnly
            ? "No unread notifications."
            : "Nothing yet: when the other party of one of your deals acts, you will see it here."}
        </p>
      )}
      <ul className="inbox-list" data-testid="inbox-list">
        {items.map((n) => (
          <li key={n.id} className={`card inbox-item${n.read ? "" : " unread"}`}>
            <div className="spread">
              <div className="stack">
                <Link
                  href={`/deals/${n.event.dealId}`}
                  onClick={() => {
                    if (!n.read) void markRead({ ids: [n.id] });
                  }}
                >
                  {!n.read && <span className="visually-hidden">Unread: </span>}
                  {n.title}
                </Link>
                {n.detail && <span className="small muted break">{n.detail}</span>}
                <time className="small muted" dateTime={n.createdAt}>
                  {when(n.createdAt)}
                </time>
              </div>
              {!n.read && (
                <button
                  type="button"
                  className="btn small ghost"
                  onClick={() => void markRead({ ids: [n.id] })}
                  aria-label={`Mark read: ${n.title}`}
                >
                  Mark read
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {loading && (
        <p className="muted" role="status">
          Loading…
        </p>
      )}
      {cursor && !loading && (
        <button type="button" className="btn secondary" onClick={() => void load(cursor)}>
          Show older
        </button>
      )}
    </section>
  );
}

export function InboxPage() {
  return <SessionGate what="your inbox">{() => <InboxList />}</SessionGate>;
}
