"use client";

import { type FormEvent, useId, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";
import type { PrecheckJson } from "@/lib/verify/precheck";
import { FieldError } from "./field-error";
import { errorId, FieldErrors, fieldIssues } from "./field-errors";
import { formatScore, type MilestoneJson } from "./format";
import { Chips, DeductionList } from "./parts";

// The creator submits (or, after a rejection or a change request, resubmits) a milestone's
// deliverable: the post's URL, its text and a note for the brand. A resubmission starts from
// the last one, with what the verdict found missing (or the brand's request) above it.
export function DeliverableForm({
  milestone,
  onSubmitted,
}: {
  milestone: MilestoneJson;
  onSubmitted(): Promise<void>;
}) {
  const rejected = milestone.status === "rejected";
  // Sent back for changes (the request is shown above the form): again from the last one.
  const again = rejected || milestone.changeRequest !== null;
  const previous = again ? milestone.deliverable : null;
  const [url, setUrl] = useState(previous?.url ?? "");
  const [text, setText] = useState(previous?.text ?? "");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState(new FieldErrors());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<{ url: string; result: PrecheckJson } | null>(null);
  const [checking, setChecking] = useState(false);
  const id = useId();

  // Editing an input clears the message about its old value.
  function edited(name: string, apply: () => void) {
    apply();
    setErrors((e) => e.without(name));
    setFailure(null);
  }

  // The pre-check: the post at the URL through the verifier's rule checks; nothing is stored.
  async function precheck() {
    setChecking(true);
    setFailure(null);
    setErrors(new FieldErrors());
    const checked = url.trim();
    try {
      const result = await apiFetch<PrecheckJson>(`/api/milestones/${milestone.id}/precheck`, {
        body: { url: checked },
      });
      setCheck({ url: checked, result });
    } catch (err) {
      setCheck(null);
      const issues = fieldIssues(err);
      if (issues) setErrors(new FieldErrors(issues));
      else setFailure(errorMessage(err));
    } finally {
      setChecking(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setErrors(new FieldErrors());
    try {
      await apiFetch(`/api/milestones/${milestone.id}/deliverable`, {
        body: { url: url.trim(), text, note },
      });
      await onSubmitted();
    } catch (err) {
      const issues = fieldIssues(err);
      if (issues) setErrors(new FieldErrors(issues));
      else setFailure(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: string) => {
    const messages = errors.at(name);
    return { messages, errId: `${id}-${errorId(name)}`, invalid: messages.length > 0 || undefined };
  };
  const f = { url: field("url"), text: field("text"), note: field("note") };
  const missing = milestone.verdict?.missing ?? [];

  return (
    <form
      className="panel stack deliverable-form"
      onSubmit={submit}
      noValidate
      aria-busy={busy}
      aria-labelledby={`${id}-title`}
      data-testid="deliverable-form"
    >
      <h3 id={`${id}-title`}>{again ? "Resubmit your deliverable" : "Submit your deliverable"}</h3>
      {rejected && (
        <div className="alert error stack tight" role="status">
          <span>
            The brand&apos;s check did not pass
            {milestone.verdict ? ` (score ${Math.round(milestone.verdict.score * 100)}%)` : ""}.{" "}
            {missing.length > 0
              ? "Add what was missing, then submit again:"
              : "See the verdict above, improve your post and submit again."}
          </span>
          <Chips items={missing} tone="missing" />
        </div>
      )}
      <div className="field">
        <label>
          Post URL
          <input
            type="url"
            inputMode="url"
            required
            value={url}
            onChange={(e) => edited("url", () => setUrl(e.target.value))}
            placeholder="https://www.instagram.com/p/…"
            aria-invalid={f.url.invalid}
            aria-describedby={f.url.errId}
          />
        </label>
        <FieldError id={f.url.errId} label="The URL" messages={f.url.messages} />
      </div>
      <div className="field">
        <label>
          <span>
            Post text{" "}
            <span className="muted small">(caption, with its hashtags, mentions, links)</span>
          </span>
          <textarea
            value={text}
            onChange={(e) => edited("text", () => setText(e.target.value))}
            placeholder="Paste the caption of your post here so the required hashtags, mentions and links can be checked."
            aria-invalid={f.text.invalid}
            aria-describedby={f.text.errId}
          />
        </label>
        <FieldError id={f.text.errId} label="The text" messages={f.text.messages} />
      </div>
      <div className="field">
        <label>
          <span>
            Note to the brand <span className="muted small">(optional)</span>
          </span>
          <input
            value={note}
            onChange={(e) => edited("note", () => setNote(e.target.value))}
            placeholder="Anything the brand should know"
            aria-invalid={f.note.invalid}
            aria-describedby={f.note.errId}
          />
        </label>
        <FieldError id={f.note.errId} label="The note" messages={f.note.messages} />
      </div>
      {check && <PrecheckView result={check.result} stale={check.url !== url.trim()} />}
      {failure && (
        <div className="alert error" role="alert">
          {failure}
        </div>
      )}
      <div className="row">
        <button
          className="btn secondary"
          type="button"
          onClick={() => void precheck()}
          disabled={busy || checking || url.trim() === ""}
          data-testid="precheck-button"
        >
          {checking ? "Checking…" : "Check my post"}
        </button>
        <button className="btn" type="submit" disabled={busy}>
          {busy ? "Submitting…" : again ? "Resubmit deliverable" : "Submit deliverable"}
        </button>
      </div>
    </form>
  );
}

/** What the verifier's rules would find on the post: missing items, deductions, criteria left to judge. */
function PrecheckView({ result: r, stale }: { result: PrecheckJson; stale: boolean }) {
  const unread = r.post.status !== "ok";
  return (
    <div
      className={r.ready ? "alert ok small stack tight" : "alert warn small stack tight"}
      role="status"
      data-testid="precheck"
    >
      <strong>
        {unread
          ? `The post could not be read (${r.post.status}).`
          : r.ready
            ? `Ready: every required item is in the post (rule score ${formatScore(r.score)}).`
            : r.missing.length > 0
              ? "Not ready yet. Fix these before you submit:"
              : `Not ready yet: the rule score ${formatScore(r.score)} is below the ${formatScore(r.minScore)} minimum.`}
      </strong>
      {!unread && r.missing.length > 0 && <Chips items={r.missing} tone="missing" />}
      {!unread && r.deductions.length > 0 && <DeductionList deductions={r.deductions} />}
      {r.criteria.length > 0 && (
        <span className="muted">
          No rule can judge {r.criteria.length === 1 ? "this criterion" : "these criteria"}; the
          brand will: {r.criteria.join("; ")}.
        </span>
      )}
      <span className="muted">
        {stale
          ? "You changed the URL since: check again."
          : "Only a check: nothing was submitted or stored."}
      </span>
    </div>
  );
}
