import type { ApiError } from "@/lib/client/api";
import {
  type DealJson,
  expectedPayout,
  formatScore,
  formatUsdc,
  type SettlementJson,
  toUnits,
  type VerdictJson,
} from "./format";
import { ExplorerLink } from "./milestone-views";

// The live steps of a settlement: verifying → gate → paying → confirmed.

export type StepState = "waiting" | "running" | "done" | "failed";

export type SettleRun = {
  minScore: number;
  amount: number;
  verify: StepState;
  verdict?: VerdictJson;
  gate?: { passed: boolean; why: string };
  pay: StepState;
  outcome?: "paid" | "rejected";
  /** The verdict is not sure enough to settle on its own: the brand decides. */
  needsDecision?: boolean;
  settlement?: SettlementJson;
  error?: ApiError;
};

// Upstream failures (502), network errors and a missing wallet can pass on a second try.
const retryable = (e: ApiError) =>
  e.status >= 500 || e.status === 0 || e.code === "wallet_required";

function advice(error: ApiError, deal: DealJson): string | null {
  switch (error.code) {
    case "wallet_required":
      return `${deal.creator?.name ?? "The creator"} has not linked a wallet yet, so there is nowhere to send the USDC. Ask them to link one on their Wallet page, then settle again.`;
    case "settlement_in_progress":
      return "Another payment of this milestone is already under way. This page updates by itself when it is confirmed.";
    case "needs_decision":
      return "Nothing was paid or rejected: decide on it yourself below.";
    case "not_configured":
      return "Choose the direct transfer and settle again.";
    default:
      return error.status === 502 ? "Nothing was lost — trying again is safe." : null;
  }
}

export function SettleSteps({
  run,
  deal,
  onRetry,
  busy,
}: {
  run: SettleRun;
  deal: DealJson;
  onRetry(): void;
  busy: boolean;
}) {
  const { verdict, gate, settlement } = run;
  const rejected = gate && !gate.passed;
  const confirmed = run.outcome === "paid" && settlement?.status === "confirmed";
  const payout = settlement
    ? formatUsdc(settlement.amount)
    : verdict
      ? formatUsdc(expectedPayout(run.amount, verdict.score))
      : "the payout";

  const failure = run.error && (
    <div className="stack tight">
      <span className="field-error">{run.error.message}</span>
      {advice(run.error, deal) && <span className="small">{advice(run.error, deal)}</span>}
      {retryable(run.error) && (
        <div>
          <button type="button" className="btn small" onClick={onRetry} disabled={busy}>
            Try again
          </button>
        </div>
      )}
    </div>
  );

  return (
    <ol className="steps" aria-live="polite" data-testid="settle-steps">
      <li className={run.verify}>
        <span>
          {run.verify === "running"
            ? "Verifying the deliverable…"
            : run.verify === "failed"
              ? "Verification failed"
              : verdict
                ? `Verified: ${verdict.approved ? "approved" : "not approved"}, score ${formatScore(verdict.score)}`
                : "Verify the deliverable"}
        </span>
        {run.verify === "failed" && failure}
      </li>
      <li className={gate ? (gate.passed ? "done" : "failed") : "waiting"}>
        <span>
          {gate
            ? `Gate ${gate.passed ? "passed" : "failed"}: ${gate.why}`
            : `Gate: approved and score ≥ ${formatScore(run.minScore)}`}
        </span>
      </li>
      {run.needsDecision ? (
        <li className="waiting" data-testid="settle-needs-decision">
          <span>Waiting for your decision — nothing was paid or rejected.</span>
        </li>
      ) : rejected ? (
        <li className={run.pay === "done" ? "ended" : run.pay}>
          <span>
            {run.pay === "running"
              ? "Recording the rejection…"
              : run.pay === "failed"
                ? "Could not record the rejection"
                : "Rejected — nothing was paid. The creator can fix it and resubmit."}
          </span>
          {run.pay === "failed" && failure}
        </li>
      ) : (
        <>
          <li className={run.pay}>
            <span>
              {run.pay === "running"
                ? `Releasing ${payout} from the escrow…`
                : run.pay === "failed"
                  ? "Payment failed"
                  : run.pay === "done"
                    ? `Released ${payout} from the escrow ${settlement?.via === "relay" ? "through the relay" : "directly"}`
                    : `Pay ${payout}`}
            </span>
            {run.pay === "failed" && failure}
          </li>
          <li className={confirmed ? "done" : run.pay === "done" ? "running" : "waiting"}>
            <span data-testid={confirmed ? "settle-confirmed" : undefined}>
              {confirmed
                ? `Confirmed — ${payout} paid to the creator${settlement && toUnits(settlement.refund) > 0n ? `, ${formatUsdc(settlement.refund)} returned to you` : ""}`
                : run.pay === "done"
                  ? `Waiting for confirmation (${settlement?.status ?? "pending"})…`
                  : "Confirmed on-chain"}
            </span>
            {confirmed && settlement && (
              <span>
                <ExplorerLink settlement={settlement} />
              </span>
            )}
          </li>
        </>
      )}
    </ol>
  );
}
