"use client";

import { EvidenceCard } from "@/components/verify/evidence-card";
import { ReputationBadge } from "@/components/wallet";
import { DeliverableForm } from "./deliverable-form";
import { DraftsPanel } from "./drafts-panel";
import {
  awaitsCreator,
  type DealJson,
  formatDate,
  formatUsdc,
  type MilestoneJson,
  milestoneStatusText,
  milestoneTone,
  paymentState,
  paymentStuck,
} from "./format";
import {
  DeliverableView,
  ExplorerLink,
  MilestoneTimeline,
  RefundView,
  SettlementView,
  VerdictView,
} from "./milestone-views";
import { useDealPageSeed } from "./page-seed";
import { Badge, RequirementsView } from "./parts";
import { type ReviewedMilestone, ReviewPanel } from "./review-panel";
import { type RelayStatus, SettlePanel } from "./settle-panel";

// One milestone on the deal page: what it pays and requires, where it stands, the latest
// deliverable, verdict and payment; plus the actions of the viewer's side.

export type Viewer = "brand" | "creator" | "prospect";

type Props = {
  index: number;
  deal: DealJson;
  milestone: ReviewedMilestone;
  viewer: Viewer;
  relay: RelayStatus | null;
  onChanged(): Promise<void>;
};

export function MilestoneCard({ index, deal, milestone: m, viewer, relay, onChanged }: Props) {
  const overdue =
    m.dueAt &&
    m.status !== "paid" &&
    m.status !== "refunded" &&
    new Date(m.dueAt).getTime() < Date.now()
      ? " · overdue"
      : "";
  return (
    <article
      className="card stack milestone"
      data-testid="milestone"
      data-status={m.status}
      aria-labelledby={`milestone-${m.id}`}
    >
      <div className="spread top">
        <div className="stack tight">
          <span className="muted small">Milestone {index + 1}</span>
          <h2 id={`milestone-${m.id}`}>{m.title}</h2>
        </div>
        <Badge tone={milestoneTone(m.status)} testId="milestone-status" plain>
          {milestoneStatusText(m, viewer)}
        </Badge>
      </div>
      <p className="row tight">
        <strong className="amount">{formatUsdc(m.amount)}</strong>
        <span className="muted small">
          {m.dueAt ? `due ${formatDate(m.dueAt)}${overdue}` : "no due date"}
        </span>
      </p>
      <MilestoneTimeline status={m.status} />

      <section className="stack tight">
        <h3>Requirements</h3>
        <RequirementsView requirements={m.requirements} missing={m.verdict?.missing} />
      </section>

      {viewer !== "prospect" && deal.creatorId && (
        <DraftsPanel deal={deal} milestone={m} viewer={viewer} onChanged={onChanged} />
      )}
      {viewer === "creator" && <CreatorStatus milestone={m} />}
      {m.deliverable && <DeliverableView deliverable={m.deliverable} />}
      {m.deliverable && m.verdict && (
        <EvidenceCard milestoneId={m.id} revision={m.deliverable.revision} />
      )}
      {m.verdict && <VerdictView verdict={m.verdict} requirements={m.requirements} deal={deal} />}
      {m.settlement && <SettlementView settlement={m.settlement} viewer={viewer} />}
      {m.status === "refunded" && <RefundView milestone={m} viewer={viewer} />}

      {viewer === "creator" && awaitsCreator(m) && deal.status === "active" && (
        <DeliverableForm milestone={m} onSubmitted={onChanged} />
      )}
      {viewer === "brand" && m.status !== "refunded" && (
        <SettlePanel deal={deal} milestone={m} relay={relay} onSettled={onChanged} />
      )}
      <ReviewPanel deal={deal} milestone={m} viewer={viewer} onChanged={onChanged} />
    </article>
  );
}

/** The creator's view of where the milestone stands and what happens next. */
function CreatorStatus({ milestone: m }: { milestone: MilestoneJson }) {
  const reputation = useDealPageSeed().reputation;
  if (m.status === "submitted")
    return (
      <div className="alert" role="status">
        Submitted — waiting for the brand&apos;s review. This page updates by itself when the
        verdict or the payment arrives.
      </div>
    );
  if (m.status === "approved")
    return (
      <div className="alert" role="status">
        {paymentStuck(paymentState(m.settlement))
          ? "Approved! The payment to your wallet is held up — see Payment below."
          : "Approved! The payment is on its way to your wallet."}
      </div>
    );
  if (m.status === "paid" && m.settlement)
    return (
      <div className="alert ok stack tight" role="status" data-testid="paid-banner">
        <span>
          You were paid <strong>{formatUsdc(m.settlement.amount)}</strong> for this milestone.
          {Number(m.settlement.refund) > 0 && (
            <span className="small">
              {" "}
              The rest, {formatUsdc(m.settlement.refund)}, went back to the brand.
            </span>
          )}
        </span>
        <span className="row tight small">
          Your reputation:{" "}
          <ReputationBadge
            wallet={m.settlement.recipient}
            seed={reputation[m.settlement.recipient.toLowerCase()]}
          />
        </span>
        <ExplorerLink settlement={m.settlement} />
      </div>
    );
  return null;
}
