import { AddressLink, CopyHash, TxLink } from "./escrow-views";
import {
  type DealJson,
  type DeliverableJson,
  formatDate,
  formatScore,
  formatUsdc,
  type MilestoneJson,
  needsDecision,
  type PaymentState,
  paymentState,
  type SettlementJson,
  toUnits,
  type VerdictJson,
  verdictCoverage,
} from "./format";
import { Badge, Chips, DeductionList } from "./parts";

// Read-only pieces of a milestone card: status timeline, deliverable, verdict, payment.

type Step = { label: string; state?: "done" | "current" | "failed" };

function timelineSteps(status: MilestoneJson["status"]): Step[] {
  switch (status) {
    case "pending":
      return [
        { label: "Pending", state: "current" },
        { label: "Submitted" },
        { label: "Approved" },
        { label: "Paid" },
      ];
    case "submitted":
      return [
        { label: "Pending", state: "done" },
        { label: "Submitted", state: "current" },
        { label: "Approved" },
        { label: "Paid" },
      ];
    case "approved":
      return [
        { label: "Pending", state: "done" },
        { label: "Submitted", state: "done" },
        { label: "Approved", state: "current" },
        { label: "Paid" },
      ];
    case "paid":
      return [
        { label: "Pending", state: "done" },
        { label: "Submitted", state: "done" },
        { label: "Approved", state: "done" },
        { label: "Paid", state: "done" },
      ];
    case "rejected":
      return [
        { label: "Pending", state: "done" },
        { label: "Submitted", state: "done" },
        { label: "Rejected", state: "failed" },
        { label: "Resubmit", state: "current" },
      ];
    case "refunded":
      return [
        { label: "Pending", state: "done" },
        { label: "Refunded to the brand", state: "done" },
      ];
  }
}

export function MilestoneTimeline({ status }: { status: MilestoneJson["status"] }) {
  return (
    <ol className="timeline" aria-label="Progress">
      {timelineSteps(status).map((step) => (
        <li
          key={step.label}
          className={step.state}
          aria-current={step.state === "current" ? "step" : undefined}
        >
          {step.state === "done" ? "✓ " : step.state === "failed" ? "✕ " : ""}
          {step.label}
        </li>
      ))}
    </ol>
  );
}

export function DeliverableView({ deliverable }: { deliverable: DeliverableJson }) {
  return (
    <section className="panel stack tight" data-testid="deliverable">
      <div className="spread">
        <h3>Latest deliverable</h3>
        <span className="muted small">
          Revision {deliverable.revision} · {formatDate(deliverable.submittedAt, true)}
        </span>
      </div>
      <a className="break" href={deliverable.url} target="_blank" rel="noopener noreferrer">
        {deliverable.url}
      </a>
      {deliverable.text && <blockquote className="quote pre-line">{deliverable.text}</blockquote>}
      {deliverable.note && (
        <p className="small pre-line">
          <span className="muted">Note: </span>
          {deliverable.note}
        </p>
      )}
    </section>
  );
}

export function VerdictView({
  verdict,
  requirements,
  deal,
}: {
  verdict: VerdictJson;
  requirements?: MilestoneJson["requirements"];
  /** The deal's auto-settle threshold decides whether the verdict settles on its own. */
  deal: Pick<DealJson, "autoSettleConfidence">;
}) {
  const sure = !needsDecision(verdict, deal);
  return (
    <section className="panel stack tight" data-testid="verdict">
      <div className="spread">
        <h3 data-testid="verdict-verifier">{verdict.verifier}</h3>
        <span className="row tight">
          <span
            className={verdict.approved ? "badge ok plain" : "badge bad plain"}
            data-testid="verdict-approved"
          >
            {verdict.approved ? "Approved" : "Not approved"}
          </span>
          <Badge tone="info" testId="verdict-score">
            Score {formatScore(verdict.score)}
          </Badge>
        </span>
      </div>
      {verdict.deductions.length > 0 && (
        <div className="stack tight small" data-testid="verdict-deductions">
          <span className="muted">Why not 100 %:</span>
          <DeductionList deductions={verdict.deductions} />
        </div>
      )}
      {requirements && <VerdictCoverageView verdict={verdict} requirements={requirements} />}
      {verdict.missing.length > 0 && (
        <div className="stack tight">
          <span className="small bad-text">Missing</span>
          <Chips items={verdict.missing} tone="missing" />
        </div>
      )}
      {verdict.model !== "brand_decision" && (
        <p className={sure ? "muted small" : "alert warn small"} data-testid="verdict-confidence">
          Confidence {formatScore(verdict.confidence)}
          {sure
            ? ": sure enough to settle without a person."
            : verdict.confidence >= deal.autoSettleConfidence
              ? ` — the rule check cannot judge the criteria, so the brand decides.`
              : ` — below the ${formatScore(deal.autoSettleConfidence)} this deal needs to settle on its own (its auto-settle threshold), so the brand decides.`}
        </p>
      )}
      <details className="small">
        <summary className="muted">Full reasoning</summary>
        <p className="small">{verdict.reasoning}</p>
      </details>
      <p className="muted small">
        <span className="mono">{verdict.model}</span> · revision {verdict.revision} ·{" "}
        {formatDate(verdict.verifiedAt, true)}
      </p>
    </section>
  );
}

/**
 * What the verdict rests on, in plain words: what the service checked on the post itself,
 * which criteria the AI model judged, and which nobody checked (the offline rubric cannot
 * judge free-text criteria: a score of 100 % does not mean they are met).
 */
function VerdictCoverageView({
  verdict,
  requirements,
}: {
  verdict: VerdictJson;
  requirements: MilestoneJson["requirements"];
}) {
  const c = verdictCoverage(requirements, verdict);
  const stateWord = { found: "found", missing: "missing", unchecked: "not checked" } as const;
  return (
    <div className="stack tight small verdict-coverage" data-testid="verdict-coverage">
      {c.checked.length > 0 && (
        <div>
          <span className="muted">
            {c.postUnread
              ? "Not checked — the post could not be read: "
              : "Checked on the post by the service: "}
          </span>
          <ul className="coverage-list">
            {c.checked.map((x) => (
              <li key={x.item} className={x.state}>
                {x.state === "found" ? "✓ " : x.state === "missing" ? "✕ " : "? "}
                <span className="break">{x.item}</span>{" "}
                <span className="muted">({stateWord[x.state]})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {c.judged.length > 0 && (
        <div data-testid="verdict-judged">
          <span className="muted">Judged by the AI model: </span>
          <ul className="coverage-list">
            {c.judged.map((x) => (
              <li key={x.item} className={x.met ? "found" : "missing"}>
                {x.met ? "✓ " : "✕ "}
                {x.item} <span className="muted">({x.met ? "met" : "not met"})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {c.unchecked.length > 0 && (
        <div className="alert warn small" data-testid="verdict-unchecked">
          <strong>Not checked by anyone yet:</strong>{" "}
          {c.unchecked.length === 1 ? "this criterion needs" : "these criteria need"} a judgement
          that the offline verifier cannot make
          {verdict.approved ? ", so the score does not cover them" : ""}. Check{" "}
          {c.unchecked.length === 1 ? "it" : "them"} yourself in the post:
          <ul className="coverage-list">
            {c.unchecked.map((item) => (
              <li key={item}>• {item}</li>
            ))}
          </ul>
        </div>
      )}
      {c.checked.length === 0 && c.judged.length === 0 && c.unchecked.length === 0 && (
        <span className="muted">
          This milestone lists no hashtags, mentions, links or criteria: the verdict rests on the
          post alone.
        </span>
      )}
    </div>
  );
}

const paymentBadges: Record<
  PaymentState,
  { tone: "ok" | "warn" | "bad" | "neutral"; text: string }
> = {
  none: { tone: "neutral", text: "Not started" },
  paying: { tone: "warn", text: "Paying…" },
  delayed: { tone: "warn", text: "Delayed" },
  failed: { tone: "bad", text: "Failed" },
  paid: { tone: "ok", text: "Confirmed" },
};

/**
 * A payment that is not going through: said plainly to both parties — what happened, that
 * it will be retried and cannot pay twice, and who can do what about it.
 */
export function PaymentNotice({
  settlement,
  viewer,
}: {
  settlement: SettlementJson;
  viewer?: string;
}) {
  const state = paymentState(settlement);
  if (state !== "delayed" && state !== "failed") return null;
  const since = formatDate(settlement.updatedAt, true);
  if (state === "delayed")
    return (
      <div className="alert warn small stack tight" role="status" data-testid="payment-delayed">
        <strong>Payment delayed</strong>
        <span>
          {settlement.txHash
            ? "The release was sent to the blockchain but is not confirmed yet"
            : "The release is prepared but the blockchain could not be reached"}{" "}
          (since {since}). The service retries it automatically; it can never be paid twice.
        </span>
        <span>
          {viewer === "brand"
            ? "You can also retry it now below."
            : viewer === "creator"
              ? "Nothing is needed from you: the money is still locked for you in the escrow."
              : "The money is still locked in the escrow."}
        </span>
      </div>
    );
  return (
    <div className="alert error small stack tight" role="status" data-testid="payment-failed">
      <strong>Payment did not go through</strong>
      <span>
        The last attempt failed
        {viewer === "brand" && settlement.error ? ` (${settlement.error})` : ""} on {since}. No
        money moved twice: the escrow releases a milestone at most once.
      </span>
      <span>
        {viewer === "brand"
          ? "Retry the payment below."
          : "Only the brand can retry it; nothing was paid twice or lost."}
      </span>
    </div>
  );
}

/**
 * The escrow release of a milestone: both halves (paid to the creator, returned to the
 * brand), how and at what score, the transaction and the verdict hash it carried on-chain.
 */
export function SettlementView({
  settlement,
  viewer,
}: {
  settlement: SettlementJson;
  viewer?: string;
}) {
  const refund = toUnits(settlement.refund);
  const state = paymentState(settlement);
  const badge = paymentBadges[state];
  // Until the release is confirmed nothing is paid yet: say what it will pay.
  const done = state === "paid";
  return (
    <section className="panel stack tight" data-testid="settlement">
      <div className="spread">
        <h3>Payment</h3>
        <Badge tone={badge.tone} testId="settlement-status">
          {badge.text}
        </Badge>
      </div>
      <PaymentNotice settlement={settlement} viewer={viewer} />
      <dl className="split-facts">
        <div>
          <dt>{done ? "Paid to the creator" : "To the creator"}</dt>
          <dd className="kv-value">
            <strong data-testid="settlement-amount">{formatUsdc(settlement.amount)}</strong>{" "}
            <span className="muted small">
              to <AddressLink address={settlement.recipient} />
            </span>
          </dd>
        </div>
        <div>
          <dt>
            {done ? "Returned" : "Back"} {viewer === "brand" ? "to you" : "to the brand"}
          </dt>
          <dd className="kv-value">
            <strong data-testid="settlement-refund" className={refund === 0n ? "muted" : undefined}>
              {formatUsdc(settlement.refund)}
            </strong>
          </dd>
        </div>
      </dl>
      <p className="muted small">
        {done ? "Released" : "Releases"} from the escrow at score{" "}
        {formatScore(settlement.scoreUsed)} ·{" "}
        {settlement.via === "relay" ? "signed release, relayed" : "sent by the verifier"}
      </p>
      {settlement.verdictHash && (
        <div className="row tight small">
          <span className="muted">Verdict hash on-chain</span>
          <CopyHash value={settlement.verdictHash} testId="verdict-hash" />
        </div>
      )}
      <ExplorerLink settlement={settlement} />
    </section>
  );
}

/** A milestone whose money went back to the brand (cancelled or expired deal). */
export function RefundView({ milestone, viewer }: { milestone: MilestoneJson; viewer?: string }) {
  return (
    <section className="panel stack tight" data-testid="milestone-refund">
      <h3>{viewer === "brand" ? "Refunded to you" : "Refunded to the brand"}</h3>
      <p className="small">
        <strong>{formatUsdc(milestone.amount)}</strong> went back from the escrow to{" "}
        {viewer === "brand" ? "your wallet" : "the brand's wallet"}
        {viewer === "creator" ? "; this milestone can no longer be paid" : ""}.
      </p>
      {milestone.refundTxHash && (
        <TxLink hash={milestone.refundTxHash} className="btn small secondary fit" />
      )}
    </section>
  );
}

/** "View transaction": the block explorer (or the app's own page on the local chain). */
export function ExplorerLink({ settlement }: { settlement: SettlementJson }) {
  if (!settlement.explorerUrl) return null;
  const external = /^https?:/.test(settlement.explorerUrl);
  return (
    <a
      className="btn small secondary fit"
      href={settlement.explorerUrl}
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
    >
      View transaction
    </a>
  );
}
