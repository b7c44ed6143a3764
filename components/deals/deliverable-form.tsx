"use client";

import { type FormEvent, useId, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { FieldError } from "./field-error";
import { errorId, FieldErrors, fieldIssues } from "./field-errors";
import type { MilestoneJson } from "./format";
import { Chips } from "./parts";

// The creator submits (or, after a rejection, resubmits) a milestone's deliverable:
// the post's URL, its text and a note for the brand. A resubmission starts from the last
// one, with what the verdict found missing listed above it.
export function DeliverableForm({
  milestone,
  onSubmitted,
}: {
  milestone: MilestoneJson;
  onSubmitted(): Promise<void>;
}) {
  const rejected = milestone.status === "rejected";
  const previous = rejected ? milestone.deliverable : null;
  const [url, setUrl] = useState(previous?.url ?? "");
  const [text, setText] = useState(previous?.text ?? "");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState(new FieldErrors());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  // Editing an input clears the message about its old value.
  function edited(name: string, apply: () => void) {
    apply();
    setErrors((e) => e.without(name));
    setFailure(null);
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
      <h3 id={`${id}-title`}>
        {rejected ? "Resubmit your deliverable" : "Submit your deliverable"}
      </h3>
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
      {failure && (
        <div className="alert error" role="alert">
          {failure}
        </div>
      )}
      <div className="row">
        <button className="btn" type="submit" disabled={busy}>
          {busy ? "Submitting…" : rejected ? "Resubmit deliverable" : "Submit deliverable"}
        </button>
      </div>
    </form>
  );
}
