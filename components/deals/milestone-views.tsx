import { AddressLink, CopyHash, TxLink } from "./escrow-views";
import {
  type DeliverableJson,
  formatDate,
  formatScore,
  formatUsdc,
  type MilestoneJson,
  type SettlementJson,
  toUnits,
  type VerdictJson,
} from "./format";
import { Badge, Chips } from "./parts";

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

export function VerdictView({ verdict }: { verdict: VerdictJson }) {
  return (
    <section className="panel stack tight" data-testid="verdict">
      <div className="spread">
        <h3>AI verdict</h3>
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
      {verdict.missing.length > 0 && (
        <div className="stack tight">
          <span className="small bad-text">Missing</span>
          <Chips items={verdict.missing} tone="missing" />
        </div>
      )}
      <p className="small">{verdict.reasoning}</p>
      <p className="muted small">
        <span className="mono">{verdict.model}</span> · revision {verdict.revision} ·{" "}
        {formatDate(verdict.verifiedAt, true)}
      </p>
    </section>
  );
}

const settlementTones: Record<string, "ok" | "warn" | "bad"> = {
  confirmed: "ok",
  pending: "warn",
  submitted: "warn",
  failed: "bad",
};

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
  return (
    <section className="panel stack tight" data-testid="settlement">
      <div className="spread">
        <h3>Payment</h3>
        <Badge tone={settlementTones[settlement.status] ?? "neutral"} testId="settlement-status">
          {settlement.status}
        </Badge>
      </div>
      <dl className="split-facts">
        <div>
          <dt>Paid to the creator</dt>
          <dd className="kv-value">
            <strong data-testid="settlement-amount">{formatUsdc(settlement.amount)}</strong>{" "}
            <span className="muted small">
              to <AddressLink address={settlement.recipient} />
            </span>
          </dd>
        </div>
        <div>
          <dt>{viewer === "brand" ? "Returned to you" : "Returned to the brand"}</dt>
          <dd className="kv-value">
            <strong data-testid="settlement-refund" className={refund === 0n ? "muted" : undefined}>
              {formatUsdc(settlement.refund)}
            </strong>
          </dd>
        </div>
      </dl>
      <p className="muted small">
        Released from the escrow at score {formatScore(settlement.scoreUsed)} ·{" "}
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
