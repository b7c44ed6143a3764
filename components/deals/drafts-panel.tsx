"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, Suspense, useId, useState } from "react";
import { ApiError, apiFetch, errorMessage } from "@/lib/client/api";
import type { DraftJson } from "@/lib/drafts/schemas";
import { ActionError, ConfirmBox, useConfirmedAction } from "./confirmed-action";
import type { DealJson, MilestoneJson } from "./format";
import { formatDate } from "./format";
import { useDealPageSeed, useSeed } from "./page-seed";
import { Badge, Chips } from "./parts";

// The Drafts section of a milestone on the deal page (issue 24, item 1): the creator sends a
// draft of the post before publishing it (caption, and an image or video file or a link),
// sees at once what the caption lacks, and the brand approves it or asks for changes. Only
// the deal's two parties see it (the API answers anyone else 404).

type Viewer = "brand" | "creator";

const ACCEPT = "image/jpeg,image/png,image/webp,video/mp4,video/quicktime,video/webm";

const statusText: Record<DraftJson["status"], string> = {
  submitted: "Waiting for the brand",
  approved: "Approved",
  changes_requested: "Changes requested",
  superseded: "Replaced by a newer draft",
};
const statusTone = {
  submitted: "info",
  approved: "ok",
  changes_requested: "warn",
  superseded: "neutral",
} as const;

export const draftsQueryKey = (milestoneId: string) => ["drafts", milestoneId];

export function DraftsPanel(props: {
  deal: DealJson;
  milestone: MilestoneJson;
  viewer: Viewer;
  onChanged(): Promise<void>;
}) {
  // The drafts stream in with the page (its seed); meanwhile the section says it is loading.
  return (
    <Suspense
      fallback={
        <section className="stack tight" data-testid="drafts">
          <h3>Drafts</h3>
          <p className="muted small" role="status">
            Loading drafts…
          </p>
        </section>
      }
    >
      <Drafts {...props} />
    </Suspense>
  );
}

function Drafts({
  deal,
  milestone,
  viewer,
  onChanged,
}: {
  deal: DealJson;
  milestone: MilestoneJson;
  viewer: Viewer;
  onChanged(): Promise<void>;
}) {
  const queryClient = useQueryClient();
  const key = draftsQueryKey(milestone.id);
  const seeded = useSeed(useDealPageSeed().drafts)?.[milestone.id];
  const [seed] = useState(() => seeded);
  const drafts = useQuery({
    queryKey: key,
    initialData: seed,
    staleTime: 10_000,
    queryFn: () =>
      apiFetch<{ drafts: DraftJson[]; nextCursor: string | null }>(
        `/api/milestones/${milestone.id}/drafts?limit=20`,
      ),
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: key });
    // The activity list reads the deal's events: a draft adds one.
    await queryClient.invalidateQueries({ queryKey: ["deal-events", deal.id] });
    await onChanged();
  };
  const list = drafts.data?.drafts ?? [];
  const [latest, ...older] = list;
  const takesDrafts =
    deal.status === "active" && (milestone.status === "pending" || milestone.status === "rejected");
  const headingId = `drafts-${milestone.id}`;

  return (
    <section className="stack tight" aria-labelledby={headingId} data-testid="drafts">
      <h3 id={headingId}>Drafts</h3>
      {drafts.isPending && (
        <p className="muted small" role="status">
          Loading drafts…
        </p>
      )}
      {drafts.isError && (
        <div className="alert error small" role="alert">
          Could not load the drafts: {errorMessage(drafts.error)}{" "}
          <button type="button" className="btn small ghost" onClick={() => void drafts.refetch()}>
            Try again
          </button>
        </div>
      )}
      {drafts.isSuccess && list.length === 0 && (
        <p className="muted small" data-testid="drafts-empty">
          {viewer === "creator"
            ? "No draft yet. Before you post, you can send the brand your caption and media to approve."
            : "No draft yet. The creator may send one for you to approve before posting."}
        </p>
      )}
      {latest && (
        <DraftView draft={latest} latest viewer={viewer} deal={deal} onChanged={refresh} />
      )}
      {older.length > 0 && (
        <details className="small">
          <summary>Earlier drafts ({older.length})</summary>
          <ol className="stack tight">
            {older.map((d) => (
              <li key={d.id}>
                <DraftView draft={d} viewer={viewer} deal={deal} onChanged={refresh} />
              </li>
            ))}
          </ol>
        </details>
      )}
      {viewer === "creator" && takesDrafts && drafts.isSuccess && (
        <DraftForm milestone={milestone} previous={latest ?? null} onSent={refresh} />
      )}
    </section>
  );
}

function DraftView({
  draft: d,
  latest,
  viewer,
  deal,
  onChanged,
}: {
  draft: DraftJson;
  latest?: boolean;
  viewer: Viewer;
  deal: DealJson;
  onChanged(): Promise<void>;
}) {
  return (
    <article
      className="panel stack tight"
      data-testid="draft"
      data-status={d.status}
      data-revision={d.revision}
      aria-label={`Draft revision ${d.revision}`}
    >
      <div className="spread top">
        <strong>Revision {d.revision}</strong>
        <Badge tone={statusTone[d.status]} testId="draft-status" plain>
          {statusText[d.status]}
        </Badge>
      </div>
      <p className="muted small">Sent {formatDate(d.createdAt, true)}</p>
      <blockquote className="draft-caption" data-testid="draft-caption">
        {d.caption}
      </blockquote>
      <DraftMedia draft={d} />
      <DraftCheck check={d.check} />
      {d.reviewMessage && (
        <div className="alert warn small" data-testid="draft-review-message">
          <strong>The brand asked for changes:</strong> {d.reviewMessage}
        </div>
      )}
      {d.status === "approved" && (
        <p className="small muted">
          Approved. The live post&apos;s caption must match this one; the check lists any
          difference.
        </p>
      )}
      {latest && viewer === "brand" && d.status === "submitted" && deal.status === "active" && (
        <BrandAnswer draft={d} onChanged={onChanged} />
      )}
    </article>
  );
}

function DraftMedia({ draft: d }: { draft: DraftJson }) {
  const m = d.media;
  if (!m) return <p className="muted small">No media attached.</p>;
  if (m.kind === "link")
    return (
      <p className="small">
        Media:{" "}
        <a href={m.url} target="_blank" rel="noopener noreferrer nofollow">
          {m.url}
        </a>
      </p>
    );
  const size = `${Math.round((m.size / 1024 / 1024) * 10) / 10} MB`;
  return (
    <figure className="stack tight draft-media">
      {m.kind === "image" ? (
        // biome-ignore lint/performance/noImgElement: a private upload streamed by our API, not an optimisable asset
        <img
          src={m.url}
          alt={`The draft's image, revision ${d.revision}`}
          loading="lazy"
          style={{ maxWidth: "100%", maxHeight: 320, objectFit: "contain" }}
        />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: a creator's draft video has no captions file
        <video
          src={m.url}
          controls
          preload="metadata"
          style={{ maxWidth: "100%", maxHeight: 320 }}
        />
      )}
      <figcaption className="muted small">
        {m.name ?? (m.kind === "image" ? "Image" : "Video")} · {size} ·{" "}
        <a href={m.url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      </figcaption>
    </figure>
  );
}

function DraftCheck({ check }: { check: DraftJson["check"] }) {
  return (
    <div
      className={check.ready ? "alert ok small stack tight" : "alert warn small stack tight"}
      data-testid="draft-check"
    >
      <strong>
        {check.ready
          ? "Every required hashtag, mention and link is in the caption."
          : "The caption lacks:"}
      </strong>
      {!check.ready && <Chips items={check.missing} tone="missing" />}
      {check.criteria.length > 0 && (
        <span className="muted">
          No rule can judge {check.criteria.length === 1 ? "this criterion" : "these criteria"}:{" "}
          {check.criteria.join("; ")}.
        </span>
      )}
    </div>
  );
}

function BrandAnswer({ draft: d, onChanged }: { draft: DraftJson; onChanged(): Promise<void> }) {
  const id = useId();
  const [message, setMessage] = useState("");
  const base = `/api/milestones/${d.milestoneId}/drafts/${d.id}`;
  const approve = useConfirmedAction(() => apiFetch(`${base}/approve`, { method: "POST" }), {
    onChanged,
  });
  const changes = useConfirmedAction(
    (text: string) => apiFetch(`${base}/request-changes`, { body: { message: text } }),
    { onChanged },
  );
  const tooShort = message.trim().length < 3;
  return (
    <div className="stack tight" data-testid="draft-answer">
      {approve.confirming ? (
        <ConfirmBox
          confirmLabel="Approve this draft"
          busyLabel="Approving…"
          busy={approve.busy}
          onConfirm={() => void approve.send()}
          onBack={approve.back}
          testId="confirm-approve-draft"
        >
          <p className="small">
            Approve revision {d.revision}? The creator may then post it; the live post&apos;s
            caption will be checked against this one.
          </p>
        </ConfirmBox>
      ) : changes.confirming ? (
        <ConfirmBox
          confirmLabel="Send the change request"
          busyLabel="Sending…"
          busy={changes.busy}
          onConfirm={() => void changes.send(message.trim())}
          onBack={changes.back}
          testId="confirm-request-changes"
        >
          <p className="small">
            Ask the creator for changes to revision {d.revision}, with this message:
          </p>
          <blockquote className="small">{message.trim()}</blockquote>
        </ConfirmBox>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-message`}>
              What should change? <span className="muted small">(for a change request)</span>
            </label>
            <textarea
              id={`${id}-message`}
              value={message}
              maxLength={2000}
              onChange={(e) => setMessage(e.target.value)}
              placeholder="e.g. Put #ad in the first line."
            />
          </div>
          <div className="row">
            <button type="button" className="btn" onClick={approve.ask} data-testid="approve-draft">
              Approve draft
            </button>
            <button
              type="button"
              className="btn secondary"
              onClick={changes.ask}
              disabled={tooShort}
              aria-describedby={tooShort ? `${id}-hint` : undefined}
              data-testid="request-changes"
            >
              Request changes
            </button>
          </div>
          {tooShort && (
            <p id={`${id}-hint`} className="muted small">
              Write what should change (at least 3 characters) to request changes.
            </p>
          )}
        </>
      )}
      <ActionError error={approve.error} />
      <ActionError error={changes.error} />
    </div>
  );
}

/**
 * One request with XMLHttpRequest, which (unlike fetch) reports upload progress. Resolves with
 * the status and the parsed JSON (null when the answer is not JSON); rejects only when the
 * server cannot be reached.
 */
function xhrSend(
  method: "POST" | "PUT",
  url: string,
  body: XMLHttpRequestBodyInit,
  headers: Record<string, string>,
  onProgress: (fraction: number) => void,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () =>
      reject(
        new ApiError("network_error", "Could not reach the server. Check your connection.", 0),
      );
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        // not JSON (a bucket answers XML)
      }
      resolve({ status: xhr.status, json });
    };
    xhr.send(body);
  });
}

function draftAnswer({ status, json }: { status: number; json: unknown }): DraftJson {
  if (status >= 200 && status < 300) return (json as { draft: DraftJson }).draft;
  const error = (json as { error?: { code: string; message: string; details?: unknown } })?.error;
  throw error
    ? new ApiError(error.code, error.message, status, error.details)
    : new ApiError("http_error", `The server answered ${status}.`, status);
}

type UploadTicket = {
  upload: { id: string; url: string; method: "PUT"; headers: Record<string, string> };
};

/**
 * A file sent straight to the bucket (POST /api/uploads, then a PUT to the URL it gives), so a
 * large video never passes through the app: its id, or null where the server keeps files on
 * its own disk (503 not_configured) or the browser names a type the ticket does not take —
 * then the file goes in the draft's form, which checks it the same way.
 */
async function directUpload(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string | null> {
  if (!ACCEPT.split(",").includes(file.type)) return null;
  let ticket: UploadTicket;
  try {
    ticket = await apiFetch<UploadTicket>("/api/uploads", {
      method: "POST",
      body: { type: file.type, size: file.size },
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_configured") return null;
    throw err;
  }
  const { upload } = ticket;
  const put = await xhrSend(upload.method, upload.url, file, upload.headers, onProgress);
  if (put.status < 200 || put.status >= 300)
    throw new ApiError(
      "upload_failed",
      `The file storage refused the upload (${put.status}). Try again, or send a link instead.`,
      put.status,
    );
  return upload.id;
}

/** Sends the draft: its file straight to the bucket where there is one, else in the form. */
async function sendDraft(
  url: string,
  fields: { caption: string; link?: string },
  file: File | null,
  onProgress: (fraction: number) => void,
): Promise<DraftJson> {
  const json = { accept: "application/json", "content-type": "application/json" };
  const upload = file ? await directUpload(file, onProgress) : null;
  if (upload)
    return draftAnswer(
      await xhrSend(
        "POST",
        url,
        JSON.stringify({ ...fields, upload, uploadName: file?.name }),
        json,
        () => {},
      ),
    );
  const form = new FormData();
  form.set("caption", fields.caption);
  if (fields.link) form.set("link", fields.link);
  if (file) form.set("file", file, file.name);
  return draftAnswer(await xhrSend("POST", url, form, { accept: "application/json" }, onProgress));
}

function DraftForm({
  milestone,
  previous,
  onSent,
}: {
  milestone: MilestoneJson;
  previous: DraftJson | null;
  onSent(): Promise<void>;
}) {
  const id = useId();
  const [caption, setCaption] = useState(previous?.caption ?? "");
  const [link, setLink] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const busy = progress !== null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    setProgress(0);
    try {
      await sendDraft(
        `/api/milestones/${milestone.id}/drafts`,
        { caption, ...(link.trim() ? { link: link.trim() } : {}) },
        file,
        setProgress,
      );
      setFile(null);
      setLink("");
      setFileKey((k) => k + 1);
      await onSent();
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setProgress(null);
    }
  }

  return (
    <form
      className="panel stack tight"
      onSubmit={submit}
      noValidate
      aria-busy={busy}
      aria-labelledby={`${id}-title`}
      data-testid="draft-form"
    >
      <h4 id={`${id}-title`}>{previous ? "Send a new draft" : "Send a draft"}</h4>
      <p className="muted small">
        The brand sees it before you post; the caption is checked against the requirements at once.
      </p>
      <div className="field">
        <label htmlFor={`${id}-caption`}>Caption</label>
        <textarea
          id={`${id}-caption`}
          required
          maxLength={5000}
          value={caption}
          onChange={(e) => setCaption(e.target.value)}
          placeholder="The caption you mean to post, with its hashtags, mentions and links"
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>
          Image or video{" "}
          <span className="muted small">
            (JPEG, PNG, WebP up to 10 MB; MP4, MOV, WebM up to 100 MB; location data is removed)
          </span>
        </label>
        <input
          key={fileKey}
          id={`${id}-file`}
          type="file"
          accept={ACCEPT}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          disabled={link.trim() !== ""}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-link`}>
          Or a link to the media <span className="muted small">(optional)</span>
        </label>
        <input
          id={`${id}-link`}
          type="url"
          inputMode="url"
          value={link}
          onChange={(e) => setLink(e.target.value)}
          placeholder="https://…"
          disabled={file !== null}
        />
      </div>
      {progress !== null && (
        <div className="stack tight" role="status">
          <label htmlFor={`${id}-progress`} className="small">
            {progress < 1 ? `Uploading… ${Math.round(progress * 100)} %` : "Checking the file…"}
          </label>
          <progress id={`${id}-progress`} value={progress} max={1} />
        </div>
      )}
      {failure && (
        <div className="alert error small" role="alert">
          {failure}
        </div>
      )}
      <div className="row">
        <button
          className="btn"
          type="submit"
          disabled={busy || caption.trim() === ""}
          data-testid="send-draft"
        >
          {busy ? "Sending…" : "Send draft"}
        </button>
      </div>
    </form>
  );
}
