"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { useSession } from "@/components/session-provider";
import { apiFetch } from "@/lib/client/api";

// The header's inbox link with the unread count. Polled every 30 s while the tab is
// visible, on focus, on navigation, and when the inbox marks something read (it dispatches
// NOTIFICATIONS_CHANGED). A screen reader hears the count when it changes (aria-live).

export const NOTIFICATIONS_CHANGED = "milestone:notifications-changed";

export function UnreadBadge() {
  const { user } = useSession();
  const pathname = usePathname();
  const [count, setCount] = useState<number | null>(null);

  const refresh = useCallback(async () => {
    if (!user || document.visibilityState === "hidden") return;
    try {
      const res = await apiFetch<{ unreadCount: number }>("/api/notifications/unread");
      setCount(res.unreadCount);
    } catch {
      // Keep the last count; the next poll tries again.
    }
  }, [user]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation is a reason to look again
  useEffect(() => {
    void refresh();
  }, [refresh, pathname]);

  useEffect(() => {
    if (!user) return;
    const id = window.setInterval(() => void refresh(), 30_000);
    const onChange = () => void refresh();
    window.addEventListener(NOTIFICATIONS_CHANGED, onChange);
    window.addEventListener("focus", onChange);
    return () => {
      window.clearInterval(id);
      window.removeEventListener(NOTIFICATIONS_CHANGED, onChange);
      window.removeEventListener("focus", onChange);
    };
  }, [user, refresh]);

  if (!user) return null;
  const n = count ?? 0;
  const label = n === 0 ? "Inbox, no unread notifications" : `Inbox, ${n} unread`;
  return (
    <>
      <Link href="/inbox" className="inbox-link" aria-label={label} data-testid="inbox-link">
        Inbox
        {n > 0 && (
          <span className="badge unread-count" aria-hidden="true" data-testid="unread-count">
            {n > 99 ? "99+" : n}
          </span>
        )}
      </Link>
      <span className="visually-hidden" aria-live="polite" role="status">
        {count === null ? "" : label}
      </span>
    </>
  );
}
