"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, Suspense, useEffect, useId, useRef, useState } from "react";
import { ApiError, apiFetch, errorMessage } from "@/lib/client/api";
import type { MessageAttachmentJson, MessageJson, MessagePage } from "@/lib/deals/messages";
import { type DealJson, formatDate } from "./format";
import { useDealPageSeed, useSeed } from "./page-seed";
import { asApiError } from "./queries";

// The deal's message thread between the brand and the creator (GET/POST
// /api/deals/:id/messages), oldest at the top. Bodies are plain text and rendered as text
// (React escapes them; line breaks kept by CSS). The heading says how many of the other
// party's messages are unread; they count as read once the newest one has been on screen.
// Polled every 10 s while the tab is visible; the first page streams in with the HTML (the
// page's seed, app/deals/[id]/load-deal-seed.ts), so the thread renders without a fetch.

const MAX_CHARS = 4000; // lib/deals/messages.ts MESSAGE_MAX_CHARS (server code)

export const messagesQueryKey = (dealId: string) => ["deal-messages", dealId];

export function MessagesPanel(props: { deal: DealJson; viewer: "brand" | "creator" }) {
  return (
    <Suspense
      fallback={
        <section className="card stack" aria-label="Messages" data-testid="messages">
          <h2>Messages</h2>
          <p className="muted small" role="status">
            Loading messages…
          </p>
        </section>
      }
    >
      <Thread {...props} />
    </Suspense>
  );
}

function Thread({ deal, viewer }: { deal: DealJson; viewer: "brand" | "creator" }) {
  const id = useId();
  const queryClient = useQueryClient();
  const key = messagesQueryKey(deal.id);
  const seeded = useSeed(useDealPageSeed().messages);
  const [seed] = useState(() => seeded);
  const thread = useInfiniteQuery({
    queryKey: key,
    initialData: seed ? { pages: [seed], pageParams: [""] } : undefined,
    staleTime: 10_000,
    queryFn: ({ pageParam, signal }) =>
      apiFetch<MessagePage>(
        `/api/deals/${deal.id}/messages?limit=30${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
        { signal },
      ),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 10_000,
    refetchOnWindowFocus: true,
  });
  const pages = thread.data?.pages ?? [];
  // Pages come newest first; the thread reads oldest first.
  const messages = pages.flatMap((p) => p.messages).reverse();
  const unread = pages[0]?.unreadCount ?? 0;
  const newest = pages[0]?.messages[0];
  const other = viewer === "brand" ? "creator" : "brand";
  const otherName = (viewer === "brand" ? deal.creator?.name : deal.brand?.name) ?? `The ${other}`;

  // Read once the newest message has been on screen (not merely loaded below the fold).
  const end = useRef<HTMLDivElement>(null);
  const markRead = useMutation({
    mutationFn: (upTo: string) =>
      apiFetch<{ unreadCount: number }>(`/api/deals/${deal.id}/messages/read`, { body: { upTo } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const newestId = newest?.id;
  const { mutate } = markRead;
  useEffect(() => {
    const el = end.current;
    if (!el || !newestId || unread === 0) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && document.visibilityState === "visible") {
        seen.disconnect();
        mutate(newestId);
      }
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [newestId, unread, mutate]);

  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useMutation({
    mutationFn: ({ text, attached }: { text: string; attached: File | null }) =>
      attached
        ? postForm(`/api/deals/${deal.id}/messages`, text, attached)
        : apiFetch<{ message: MessageJson }>(`/api/deals/${deal.id}/messages`, {
            body: { body: text },
          }),
    onSuccess: async () => {
      setBody("");
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const sendError = send.error ? asApiError(send.error) : null;
  const trimmed = body.trim();
  const canSend = deal.creatorId !== null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (trimmed && !send.isPending) send.mutate({ text: trimmed, attached: file });
  }

  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="messages">
      <h2 id={`${id}-title`} className="row tight">
        Messages
        {unread > 0 && (
          <span className="badge warn" data-testid="messages-unread">
            {unread} unread
          </span>
        )}
      </h2>
      {thread.isPending && (
        <p className="muted small" role="status">
          Loading messages…
        </p>
      )}
      {thread.isError && (
        <div className="alert error small" role="alert">
          Could not load the messages: {errorMessage(thread.error)}{" "}
          <button type="button" className="btn small ghost" onClick={() => void thread.refetch()}>
            Try again
          </button>
        </div>
      )}
      {thread.isSuccess && messages.length === 0 && (
        <p className="muted small" data-testid="messages-empty">
          No messages yet. {canSend ? `Write to ${otherName} below.` : ""}
        </p>
      )}
      {thread.hasNextPage && (
        <button
          type="button"
          className="btn secondary small"
          onClick={() => void thread.fetchNextPage()}
          disabled={thread.isFetchingNextPage}
        >
          {thread.isFetchingNextPage ? "Loading…" : "Show earlier messages"}
        </button>
      )}
      {messages.length > 0 && <MessageList messages={messages} deal={deal} viewer={viewer} />}
      <div ref={end} aria-hidden="true" />
      {canSend ? (
        <form className="stack tight" onSubmit={submit} aria-busy={send.isPending} noValidate>
          <label className="field" htmlFor={`${id}-body`}>
            <span>Message to {otherName}</span>
            <textarea
              id={`${id}-body`}
              rows={3}
              maxLength={MAX_CHARS}
              value={body}
              onChange={(e) => {
                setBody(e.target.value);
                if (send.error) send.reset();
              }}
              disabled={send.isPending}
              aria-describedby={`${id}-help`}
              data-testid="message-body"
            />
            <span id={`${id}-help`} className="muted small">
              Plain text, up to {MAX_CHARS.toLocaleString("en-US")} characters. {otherName} is told
              by e-mail.
            </span>
          </label>
          <label className="field" htmlFor={`${id}-file`}>
            <span>Attach an image or video (optional)</span>
            <input
              id={`${id}-file`}
              ref={fileInput}
              type="file"
              accept="image/jpeg,image/png,image/webp,video/mp4,video/quicktime,video/webm"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              disabled={send.isPending}
              data-testid="message-file"
            />
          </label>
          {sendError && (
            <div className="alert error small" role="alert">
              {sendError.message}
            </div>
          )}
          <div className="row">
            <button
              type="submit"
              className="btn"
              disabled={!trimmed || send.isPending}
              data-testid="message-send"
            >
              {send.isPending ? "Sending…" : "Send message"}
            </button>
          </div>
        </form>
      ) : (
        <p className="muted small">Messages start once a creator takes the deal.</p>
      )}
    </section>
  );
}

/** The messages, oldest first: who wrote each and when, the body as plain text. */
export function MessageList({
  messages,
  deal,
  viewer,
}: {
  messages: MessageJson[];
  deal: Pick<DealJson, "brand" | "creator">;
  viewer: "brand" | "creator";
}) {
  const nameOf = (m: MessageJson) =>
    m.author.role === viewer
      ? "You"
      : ((m.author.role === "brand" ? deal.brand?.name : deal.creator?.name) ??
        (m.author.role === "brand" ? "The brand" : "The creator"));
  return (
    <ol className="messages" aria-label="Messages, oldest first">
      {messages.map((m) => (
        <li
          key={m.id}
          className={m.author.role === viewer ? "message mine" : "message"}
          data-testid="message"
        >
          <div className="row tight small">
            <strong>{nameOf(m)}</strong>
            <time className="muted" dateTime={m.createdAt}>
              {formatDate(m.createdAt, true)}
            </time>
          </div>
          <p className="pre-line message-body">{m.body}</p>
          {m.attachment && <AttachmentView attachment={m.attachment} from={nameOf(m)} />}
        </li>
      ))}
    </ol>
  );
}

/** A message's file: an image shown, a video playable, each also a link to the file. */
function AttachmentView({
  attachment: a,
  from,
}: {
  attachment: MessageAttachmentJson;
  from: string;
}) {
  const label = a.name ?? (a.kind === "image" ? "image" : "video");
  return (
    <div className="stack tight small" data-testid="message-attachment">
      {a.kind === "image" ? (
        // biome-ignore lint/performance/noImgElement: a private upload streamed by the app, not an optimisable asset
        <img className="message-image" src={a.url} alt={`Sent by ${from}: ${label}`} />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: a creator's own clip, no captions exist
        <video className="message-image" src={a.url} controls preload="metadata" />
      )}
      <a href={a.url} target="_blank" rel="noopener">
        Open {label} ({Math.max(1, Math.round(a.size / 1024)).toLocaleString("en-US")} KB)
      </a>
    </div>
  );
}

/** A message with a file, as multipart/form-data; errors as apiFetch reports them. */
async function postForm(url: string, text: string, file: File): Promise<{ message: MessageJson }> {
  const form = new FormData();
  form.set("body", text);
  form.set("file", file);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      body: form,
      headers: { accept: "application/json" },
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("network_error", "Could not reach the server. Check your connection.", 0);
  }
  const json = (await res.json().catch(() => null)) as {
    message: MessageJson;
    error?: { code: string; message: string; details?: unknown };
  } | null;
  if (res.ok && json) return json;
  const error = json?.error;
  throw error
    ? new ApiError(error.code, error.message, res.status, error.details)
    : new ApiError("http_error", `The server answered ${res.status}.`, res.status);
}
