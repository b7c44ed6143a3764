"use client";

import { useId, useState } from "react";
import { apiFetch } from "@/lib/client/api";
import type { ReviewJson } from "@/lib/settle/review";
import { ActionError, ConfirmBox, useConfirmedAction } from "./confirmed-action";
import { AddressLink } from "./escrow-views";
import {
  type DealJson,
  expectedPayout,
  formatDate,
  formatScore,
  formatUnitsUsdc,
  formatUsdc,
  type MilestoneJson,
  needsDecision,
  toUnits,
} from "./format";
import type { Viewer } from "./milestone-card";

// People in the loop on one milestone: the brand's own decision (pay at a score it chooses
// or uphold the rejection, with a reason), the brand's request for changes to a submission
// (sent back without a verdict), the creator's appeal of a rejection, the creator
// settling once the brand let the review window pass, and the brand taking back a
// milestone that is overdue with nothing delivered. Nothing that moves money goes on one
// click: each shows exactly what moves, and asks.

export type ReviewedMilestone = MilestoneJson & { review?: ReviewJson };

type Props = {
  deal: DealJson;
  milestone: ReviewedMilestone;
  viewer: Viewer;
  onChanged(): Promise<void>;
};

export function ReviewPanel({ deal, milestone: m, viewer, onChanged }: Props) {
  const review = m.review;
  if (!review || (deal.status !== "active" && deal.status !== "completed")) return null;
  return (
    <>
      {m.changeRequest && <ChangeRequestView milestone={m} viewer={viewer} />}
      {review.decision && <DecisionView review={review} refunded={m.status === "refunded"} />}
      {review.appeal && !review.decision && <AppealView review={review} viewer={viewer} />}
      {viewer === "brand" &&
        !review.decision &&
        (m.status === "rejected" || m.status === "submitted") && (
          <DecisionForm deal={deal} milestone={m} onChanged={onChanged} />
        )}
      {viewer === "brand" && m.status === "submitted" && !review.decision && (
        <RequestChangesForm milestone={m} onChanged={onChanged} />
      )}
      {viewer === "brand" && review.overdue && (
        <OverdueRefund deal={deal} milestone={m} onChanged={onChanged} />
      )}
      {viewer === "creator" && m.status === "rejected" && !review.appeal && !review.decision && (
        <AppealForm milestone={m} onChanged={onChanged} />
      )}
      {viewer === "creator" && m.status === "submitted" && (
        <CreatorSettle deal={deal} milestone={m} review={review} onChanged={onChanged} />
      )}
    </>
  );
}

/** The brand sent the last submission back: its message, for both parties. */
function ChangeRequestView({
  milestone: m,
  viewer,
}: {
  milestone: ReviewedMilestone;
  viewer: Viewer;
}) {
  const c = m.changeRequest;
  if (!c) return null;
  return (
    <div className="alert warn stack tight" role="status" data-testid="change-request">
      <span>
        <strong>
          {viewer === "brand" ? "You asked for changes" : "The brand asked for changes"}
        </strong>{" "}
        to revision {c.revision} on {formatDate(c.requestedAt, true)}:
      </span>
      <blockquote className="quote pre-line" data-testid="change-request-message">
        {c.message}
      </blockquote>
      <span className="small">
        {viewer === "brand"
          ? "Nothing was paid or rejected. The creator’s new version will appear here, with a new review window."
          : "Nothing was rejected. Make the changes and submit a new version below; the brand reviews it afresh."}
      </span>
    </div>
  );
}

/** The brand sends a submission back to the creator with a message; then confirms. */
function RequestChangesForm({
  milestone: m,
  onChanged,
}: {
  milestone: ReviewedMilestone;
  onChanged(): Promise<void>;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState("");
  const sendBack = useConfirmedAction(
    () =>
      apiFetch(`/api/milestones/${m.id}/request-changes`, {
        body: { message: message.trim() },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    { onChanged, refreshOnError: true },
  );
  const busy = sendBack.busy;
  const valid = message.trim().length > 0;

  if (!open)
    return (
      <div className="row">
        <button
          type="button"
          className="btn secondary"
          onClick={() => setOpen(true)}
          data-testid="request-changes-open"
        >
          Request changes
        </button>
        <span className="muted small">
          Send it back with a message; nothing is paid or rejected.
        </span>
      </div>
    );
  return (
    <section
      className="stack tight review-form"
      aria-labelledby={`${id}-title`}
      data-testid="request-changes-form"
    >
      <h3 id={`${id}-title`}>Request changes</h3>
      <p className="muted small">
        The creator sees your message and submits a new version, which you review afresh with a new
        review window. Nothing is paid or rejected, and the creator’s reputation is untouched.
      </p>
      <label className="field" htmlFor={`${id}-message`}>
        <span>What should change (the creator sees it)</span>
        <textarea
          id={`${id}-message`}
          rows={3}
          maxLength={2000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          disabled={busy || sendBack.confirming}
          data-testid="request-changes-message"
        />
      </label>
      <ActionError error={sendBack.error} />
      {sendBack.confirming ? (
        <ConfirmBox
          testId="request-changes-confirm"
          confirmLabel="Send it back"
          busyLabel="Sending…"
          busy={busy}
          onConfirm={() => void sendBack.send()}
          onBack={sendBack.back}
        >
          <strong>Send “{m.title}” back to the creator?</strong>
          <span className="small">
            Nothing moves: {formatUsdc(m.amount)} stays in the escrow. This submission can no longer
            be settled; the next one is verified afresh.
          </span>
        </ConfirmBox>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn"
            disabled={busy || !valid}
            onClick={sendBack.ask}
            data-testid="request-changes-review"
          >
            Review request…
          </button>
          <button type="button" className="btn ghost" onClick={() => setOpen(false)}>
            Cancel
          </button>
          {!valid && <span className="muted small">Write what should change first.</span>}
        </div>
      )}
    </section>
  );
}

function DecisionView({ review, refunded }: { review: ReviewJson; refunded: boolean }) {
  const d = review.decision;
  if (!d) return null;
  return (
    <div className={d.approved ? "alert ok small" : "alert small"} data-testid="decision">
      <strong>
        {d.approved
          ? `${d.decidedBy.name} decided to pay at ${formatScore(d.score)}`
          : refunded
            ? `${d.decidedBy.name} took this milestone back`
            : `${d.decidedBy.name} upheld the rejection`}
      </strong>{" "}
      on {formatDate(d.decidedAt, true)}: “{d.reason}”
    </div>
  );
}

function AppealView({ review, viewer }: { review: ReviewJson; viewer: Viewer }) {
  const a = review.appeal;
  if (!a) return null;
  return (
    <div className="alert warn small" data-testid="appeal">
      <strong>{viewer === "creator" ? "You appealed" : "The creator appealed"}</strong> the verdict
      on {formatDate(a.createdAt, true)}: “{a.reason}”
      {a.status === "open" &&
        (viewer === "creator"
          ? " — waiting for the brand’s decision."
          : " — your decision below answers it.")}
    </div>
  );
}

/** The brand decides: pay at a chosen percentage, or uphold the rejection; then confirms. */
function DecisionForm({
  deal,
  milestone: m,
  onChanged,
}: {
  deal: DealJson;
  milestone: ReviewedMilestone;
  onChanged(): Promise<void>;
}) {
  const id = useId();
  // Open by itself when the creator appealed, or when the verdict waits for the brand.
  const [opened, setOpen] = useState<boolean | null>(null);
  const open =
    opened ??
    (m.review?.appeal?.status === "open" ||
      (m.status === "submitted" && !!m.verdict && needsDecision(m.verdict, deal)));
  const [approve, setApprove] = useState(true);
  // The verdict's score until the brand types its own (the verdict may arrive after mounting).
  const [typed, setPercent] = useState<string | null>(null);
  const percent = typed ?? String(Math.round((m.verdict?.approved ? m.verdict.score : 1) * 100));
  const [reason, setReason] = useState("");
  // A failed decision may still have reached the escrow: read the deal again either way.
  const decide = useConfirmedAction(
    () =>
      apiFetch(`/api/milestones/${m.id}/decision`, {
        body: approve
          ? { approve, score, reason: reason.trim() }
          : { approve, reason: reason.trim() },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    { onChanged, refreshOnError: true },
  );
  const busy = decide.busy;

  const pct = Number(percent);
  const pctValid = percent.trim() !== "" && Number.isFinite(pct) && pct > 0 && pct <= 100;
  const reasonValid = reason.trim().length >= 3;
  const score = pct / 100;
  const payout = approve && pctValid ? expectedPayout(m.amount, score) : null;
  const back = payout === null ? null : toUnits(m.amount) - toUnits(payout);

  if (!open)
    return (
      <div className="row">
        <button
          type="button"
          className="btn secondary"
          onClick={() => setOpen(true)}
          data-testid="decide-open"
        >
          {m.status === "rejected" ? "Review the rejection yourself" : "Decide yourself"}
        </button>
      </div>
    );

  return (
    <section
      className="stack tight review-form"
      aria-labelledby={`${id}-title`}
      data-testid="decision-form"
    >
      <h3 id={`${id}-title`}>Your decision</h3>
      <p className="muted small">
        Your decision replaces the verifier’s verdict for this submission. It is final for this
        revision, and the creator sees it with your reason.
      </p>
      <fieldset className="choice stack tight" disabled={busy || decide.confirming}>
        <legend>What should happen?</legend>
        <label className="radio">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={approve}
            onChange={() => setApprove(true)}
          />
          Pay the creator
        </label>
        <label className="radio">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={!approve}
            onChange={() => setApprove(false)}
          />
          Uphold the rejection (nothing is paid; the creator can submit again)
        </label>
        {approve && (
          <label className="field" htmlFor={`${id}-pct`}>
            <span>Share of the milestone to pay (%)</span>
            <input
              id={`${id}-pct`}
              type="number"
              inputMode="decimal"
              min={1}
              max={100}
              step={1}
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
              aria-invalid={!pctValid}
              aria-describedby={`${id}-pct-help`}
              data-testid="decision-percent"
            />
            <span id={`${id}-pct-help`} className={pctValid ? "muted small" : "field-error"}>
              {pctValid
                ? `${formatUsdc(payout ?? 0)} to the creator, ${formatUnitsUsdc(back ?? 0n)} back to you.`
                : "Enter a share between 1 % and 100 %."}
            </span>
          </label>
        )}
        <label className="field" htmlFor={`${id}-reason`}>
          <span>Reason (the creator sees it)</span>
          <textarea
            id={`${id}-reason`}
            rows={3}
            maxLength={2000}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid="decision-reason"
          />
        </label>
      </fieldset>
      <ActionError error={decide.error}>
        {decide.error?.status === 502 &&
          " The decision is recorded; the payment finishes on its own."}
      </ActionError>
      {decide.confirming ? (
        <ConfirmBox
          testId="decision-confirm"
          confirmLabel={approve ? "Confirm and pay" : "Confirm"}
          busyLabel="Working…"
          busy={busy}
          onConfirm={() => void decide.send()}
          onBack={decide.back}
        >
          {approve && payout !== null && back !== null ? (
            <>
              <strong>
                Release “{m.title}” at {formatScore(score)}?
              </strong>
              <dl className="split-facts">
                <div>
                  <dt>To the creator</dt>
                  <dd className="kv-value">
                    {formatUsdc(payout)}{" "}
                    {deal.escrow.creatorWallet && (
                      <span className="muted small">
                        to <AddressLink address={deal.escrow.creatorWallet} />
                      </span>
                    )}
                  </dd>
                </div>
                <div>
                  <dt>Back to you</dt>
                  <dd className="kv-value">{formatUnitsUsdc(back)}</dd>
                </div>
              </dl>
              <span className="muted small">One escrow transaction; it cannot be undone.</span>
            </>
          ) : (
            <>
              <strong>Uphold the rejection of “{m.title}”?</strong>
              <span className="small">
                Nothing moves: {formatUsdc(m.amount)} stays in the escrow, and the creator can
                submit a new version.
              </span>
            </>
          )}
        </ConfirmBox>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn"
            disabled={busy || !reasonValid || (approve && !pctValid)}
            onClick={decide.ask}
            data-testid="decision-review"
          >
            {approve ? "Review payment…" : "Review decision…"}
          </button>
          <button type="button" className="btn ghost" onClick={() => setOpen(false)}>
            Cancel
          </button>
          {!reasonValid && <span className="muted small">Write a short reason first.</span>}
        </div>
      )}
    </section>
  );
}

function AppealForm({
  milestone: m,
  onChanged,
}: {
  milestone: ReviewedMilestone;
  onChanged(): Promise<void>;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const appealIt = useConfirmedAction(
    () => apiFetch(`/api/milestones/${m.id}/appeal`, { body: { reason: reason.trim() } }),
    { onChanged },
  );
  const busy = appealIt.busy;
  const valid = reason.trim().length >= 3;

  if (!open)
    return (
      <div className="row">
        <button
          type="button"
          className="btn secondary"
          onClick={() => setOpen(true)}
          data-testid="appeal-open"
        >
          Appeal this verdict
        </button>
        <span className="muted small">or fix it and submit a new version below.</span>
      </div>
    );
  return (
    <section
      className="stack tight review-form"
      aria-labelledby={`${id}-title`}
      data-testid="appeal-form"
    >
      <h3 id={`${id}-title`}>Appeal to the brand</h3>
      <p className="muted small">
        The brand reviews your submission itself and decides, with a reason. You can appeal each
        version once.
      </p>
      <label className="field" htmlFor={`${id}-reason`}>
        <span>Why the verdict is wrong</span>
        <textarea
          id={`${id}-reason`}
          rows={3}
          maxLength={2000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          disabled={busy}
          data-testid="appeal-reason"
        />
      </label>
      <ActionError error={appealIt.error} />
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={() => void appealIt.send()}
          disabled={busy || !valid}
          data-testid="appeal-submit"
        >
          {busy ? "Sending…" : "Send appeal"}
        </button>
        <button type="button" className="btn ghost" onClick={() => setOpen(false)} disabled={busy}>
          Cancel
        </button>
      </div>
    </section>
  );
}

/** The creator settles once the brand let the review window pass. */
function CreatorSettle({
  deal,
  milestone: m,
  review,
  onChanged,
}: {
  deal: DealJson;
  milestone: ReviewedMilestone;
  review: ReviewJson;
  onChanged(): Promise<void>;
}) {
  const [outcome, setOutcome] = useState<string | null>(null);
  const settle = useConfirmedAction(
    () =>
      apiFetch<{ outcome: string }>("/api/settle", {
        body: { milestoneId: m.id },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    { onChanged, refreshOnError: true, onSuccess: (res) => setOutcome(res.outcome) },
  );

  if (!review.creatorMaySettle)
    return review.windowEndsAt ? (
      <p className="muted small" data-testid="review-window">
        The brand has until {formatDate(review.windowEndsAt, true)} to review this. If it has not by
        then, you can settle it yourself.
      </p>
    ) : null;

  return (
    <section className="stack tight review-form" data-testid="creator-settle">
      <p className="small">
        <strong>The brand did not review this in time.</strong> You can settle it yourself: the
        verifier checks it against the brief exactly as for the brand, and if every required item is
        there and its score is at least {formatScore(deal.minScore)}, the escrow pays you{" "}
        {formatUsdc(m.amount)} × its score.
      </p>
      {outcome === "rejected" && (
        <div className="alert error small" role="status">
          The verifier did not approve it. You can appeal or submit a new version.
        </div>
      )}
      <ActionError error={settle.error} />
      {settle.confirming ? (
        <ConfirmBox
          testId="creator-settle-confirm"
          confirmLabel="Confirm"
          busyLabel="Verifying and paying…"
          busy={settle.busy}
          onConfirm={() => void settle.send()}
          onBack={settle.back}
        >
          <strong>Verify and settle “{m.title}” now?</strong>
          <span className="small">
            If it passes, one escrow transaction pays you and returns the rest to the brand. It
            cannot be undone.
          </span>
        </ConfirmBox>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn"
            onClick={settle.ask}
            data-testid="creator-settle-button"
          >
            Settle it myself
          </button>
        </div>
      )}
    </section>
  );
}

/** The brand takes back a milestone past its due date with nothing delivered. */
function OverdueRefund({
  deal,
  milestone: m,
  onChanged,
}: {
  deal: DealJson;
  milestone: ReviewedMilestone;
  onChanged(): Promise<void>;
}) {
  const refund = useConfirmedAction(
    () =>
      apiFetch(`/api/milestones/${m.id}/refund`, {
        body: {},
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    { onChanged },
  );

  return (
    <section className="stack tight review-form" data-testid="overdue">
      <p className="small">
        <strong>Overdue:</strong> it was due {formatDate(m.dueAt, true)} and nothing has been
        delivered. You can take its {formatUsdc(m.amount)} back from the escrow.
      </p>
      <ActionError error={refund.error} />
      {refund.confirming ? (
        <ConfirmBox
          confirmLabel="Confirm refund"
          busyLabel="Refunding…"
          busy={refund.busy}
          onConfirm={() => void refund.send()}
          onBack={refund.back}
        >
          <strong>Take {formatUsdc(m.amount)} back?</strong>
          <span className="small">
            The escrow returns it to{" "}
            {deal.escrow.refundTo ? <AddressLink address={deal.escrow.refundTo} /> : "your wallet"};
            the creator can no longer deliver this milestone.
          </span>
        </ConfirmBox>
      ) : (
        <div className="row">
          <button type="button" className="btn secondary" onClick={refund.ask}>
            Take it back
          </button>
        </div>
      )}
    </section>
  );
}
