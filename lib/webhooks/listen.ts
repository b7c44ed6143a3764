import { setTimeout as delay } from "node:timers/promises";
import { ApiError, createClient } from "@milestone/client";
import type { EventJson } from "@/lib/events/objects";
import {
  EVENT_ID_HEADER,
  newWebhookSecret,
  SIGNATURE_HEADER,
  signatureHeader,
} from "@/lib/webhooks/signature";

// `npm run listen -- --forward-to http://localhost:4242/hook` (scripts/listen.ts): follows the
// account's events with an API key (GET /api/events?order=asc&wait=…, a long-poll: nothing
// connects to the developer's machine, nothing on the server changes) and forwards each to a
// local receiver exactly as a webhook would arrive — the same event object as the body, signed
// with a listener secret made here and printed, so the receiver's verification code runs
// unchanged (only the secret differs from the endpoint's).

export type ForwardResult = { event: EventJson; status: number | null; error?: string };

export type ListenOptions = {
  /** The API's origin, e.g. http://localhost:3000. */
  apiUrl: string;
  /** An API key with the read scope. */
  apiKey: string;
  /** Where each event is POSTed. */
  forwardTo: string;
  /** The signing secret (default: a new one, handed to onReady). */
  secret?: string;
  /** Forward only these event types (default: all). */
  types?: string[];
  /** How long one poll may wait for an event, in seconds (default 25). */
  waitSeconds?: number;
  /** Reaches the API (default: the global fetch; tests answer in-process). */
  fetch?: typeof fetch;
  signal?: AbortSignal;
  onReady?: (info: { secret: string }) => void;
  onForward?: (result: ForwardResult) => void;
  onError?: (err: unknown) => void;
};

const FORWARD_TIMEOUT_MS = 10_000;
const RETRY_MS = 2_000;

/** POSTs one event to the receiver, signed as a webhook delivery is. */
export async function forwardEvent(
  event: EventJson,
  to: string,
  secret: string,
): Promise<ForwardResult> {
  const body = JSON.stringify(event);
  try {
    const res = await fetch(to, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": "Milestone-Listen/1.0",
        [SIGNATURE_HEADER]: signatureHeader(secret, body, Date.now() / 1000),
        [EVENT_ID_HEADER]: event.id,
      },
      // Not cut short by stopping the listener: a forward in flight ends within the timeout.
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { event, status: res.status };
  } catch (err) {
    return { event, status: null, error: (err as Error).message };
  }
}

/**
 * Forwards every event recorded from now on until `signal` aborts. An invalid key (401) or a
 * key without the read scope (403) ends it with that ApiError; anything else is reported
 * through onError and retried.
 */
export async function listen(o: ListenOptions): Promise<void> {
  const secret = o.secret ?? newWebhookSecret();
  const baseFetch = o.fetch ?? globalThis.fetch.bind(globalThis);
  const api = createClient({
    baseUrl: o.apiUrl,
    apiKey: o.apiKey,
    fetch: (input, init) => baseFetch(input, { ...init, signal: o.signal }),
  });
  const wait = o.waitSeconds ?? 25;
  // Start at the newest event: what happens from now on is forwarded, not the history.
  const newest = await api.listEvents({ limit: 1 });
  let position: { cursor: string } | { after: string } | Record<string, never> = newest.events[0]
    ? { after: newest.events[0].id }
    : {};
  o.onReady?.({ secret });
  while (!o.signal?.aborted) {
    try {
      const page = await api.listEvents({ order: "asc", limit: 100, wait, ...position });
      for (const event of page.events) {
        if (o.types?.length && !o.types.includes(event.type)) continue;
        const result = await forwardEvent(event, o.forwardTo, secret);
        o.onForward?.(result);
      }
      if (page.nextCursor) position = { cursor: page.nextCursor };
    } catch (err) {
      if (o.signal?.aborted) break;
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
      o.onError?.(err);
      await delay(RETRY_MS, undefined, { signal: o.signal }).catch(() => undefined);
    }
  }
}
