"use client";

import { useLinkStatus } from "next/link";

/**
 * The text of a <Link> (render it inside one) that says `pending` while the navigation it
 * started waits for the server: for a page with no loading.tsx, whose first response must
 * wait for its data so that a missing one can answer a real 404 status.
 */
export function LinkPendingLabel({ label, pending }: { label: string; pending: string }) {
  const status = useLinkStatus();
  return <span aria-live="polite">{status.pending ? pending : label}</span>;
}
