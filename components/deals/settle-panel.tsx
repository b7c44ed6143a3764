"use client";

import { useId, useState } from "react";
import { ApiError, apiFetch } from "@/lib/client/api";
import { AddressLink } from "./escrow-views";
import {
  type DealJson,
  expectedPayout,
  formatScore,
  formatUnitsUsdc,
  formatUsdc,
  gatePasses,
  type MilestoneJson,
  needsDecision,
  paymentState,
  paymentStuck,
  type SettlementJson,
  toUnits,
  uncertainReason,
  type VerdictJson,
} from "./format";
import { type SettleRun, SettleSteps } from "./settle-steps";

// The brand's controls for one milestone: Verify (see the verifier's verdict first) and Settle
// (verify → gate → pay → confirmed, shown step by step as it happens). The verdict is
// stored per revision, so settling after verifying does not ask the model again.

export type RelayStatus = {
  configured: boolean;
  supported: boolean;
  provider: string | null;
  reason?: string;
};

type SettleResponse =
  | { outcome: "paid"; verdict: VerdictJson; settlement: SettlementJson }
  | { outcome: "rejected"; verdict: VerdictJson };

type Props = {
  deal: DealJson;
  milestone: MilestoneJson;
  relay: RelayStatus | null;
  onSettled(): Promise<void>;
};

const asApiError = (err: unknown) =>
  err instanceof ApiError
    ? err
    : new ApiError("unknown", err instanceof Error ? err.message : "Something went wrong.", 0);

/** Why a verdict passes or fails the gate, in words. */
export function gateReason(verdict: VerdictJson, minScore: number): string {
  if (!verdict.approved)
    return verdict.missing.length
      ? `the verifier did not approve it — missing ${verdict.missing.join(", ")}`
      : "the verifier did not approve it";
  return gatePasses(verdict, minScore)
    ? `approved, and ${formatScore(verdict.score)} ≥ ${formatScore(minScore)}`
    : `the score ${formatScore(verdict.score)} is below the ${formatScore(minScore)} minimum`;
}

export function SettlePanel({ deal, milestone: m, relay, onSettled }: Props) {
  const id = useId();
  // Entered as a percentage, as everywhere else; the gate and the API take a fraction.
  const [minScore, setMinScore] = useState(String(Number((deal.minScore * 100).toFixed(2))));
  const [via, setVia] = useState<"direct" | "relay">("direct");
  const [busy, setBusy] = useState<"verify" | "settle" | null>(null);
  const [verifyError, setVerifyError] = useState<ApiError | null>(null);
  const [run, setRun] = useState<SettleRun | null>(null);
  const [confirming, setConfirming] = useState(false);

  const min = minScore.trim() === "" ? Number.NaN : Number(minScore) / 100;
  const minValid = Number.isFinite(min) && min >= 0 && min <= 1;
  const verdict = m.verdict;
  const passes = verdict && minValid ? gatePasses(verdict, min) : null;
  // Trust or escalate: a verdict the verifier is not sure of waits for the brand's decision.
  const undecided = m.status === "submitted" && verdict !== null && needsDecision(verdict, deal);
  const relayReason =
    relay === null
      ? "Checking whether gasless settlement is available…"
      : relay.supported
        ? null
        : `Not available here: ${relay.reason ?? "no relayer is configured"}.`;

  async function verify() {
    setBusy("verify");
    setVerifyError(null);
    try {
      await apiFetch<VerdictJson>("/api/verify", { body: { milestoneId: m.id } });
      await onSettled();
    } catch (err) {
      setVerifyError(asApiError(err));
    } finally {
      setBusy(null);
    }
  }

  async function settle() {
    if (!minValid) return;
    const resuming = m.status === "approved";
    setBusy("settle");
    let current: SettleRun = { minScore: min, amount: m.amount, verify: "running", pay: "waiting" };
    const update = (patch: Partial<SettleRun>) => {
      current = { ...current, ...patch };
      setRun(current);
    };
    update({});
    try {
      let verdictNow: VerdictJson;
      try {
        verdictNow = await apiFetch<VerdictJson>("/api/verify", { body: { milestoneId: m.id } });
      } catch (err) {
        update({ verify: "failed", error: asApiError(err) });
        return;
      }
      if (!resuming && needsDecision(verdictNow, deal)) {
        update({
          verify: "done",
          verdict: verdictNow,
          gate: { passed: false, why: uncertainReason(verdictNow, deal) },
          needsDecision: true,
        });
        return;
      }
      // An approved milestone is past its gate: settling only resumes its payment.
      const passed = resuming || gatePasses(verdictNow, min);
      update({
        verify: "done",
        verdict: verdictNow,
        gate: {
          passed,
          why: resuming ? "already approved — resuming the payment" : gateReason(verdictNow, min),
        },
        pay: "running",
      });
      try {
        const res = await apiFetch<SettleResponse>("/api/settle", {
          body: { milestoneId: m.id, via, minScore: min },
        });
        if (res.outcome === "paid")
          update({ pay: "done", outcome: "paid", settlement: res.settlement });
        else
          update({
            pay: "done",
            outcome: "rejected",
            gate: { passed: false, why: gateReason(res.verdict, min) },
          });
      } catch (err) {
        const e = asApiError(err);
        const settled =
          e.code === "already_settled"
            ? (e.details as { settlement?: SettlementJson } | undefined)?.settlement
            : undefined;
        if (settled) update({ pay: "done", outcome: "paid", settlement: settled });
        else update({ pay: "failed", error: e });
      }
    } finally {
      setBusy(null);
      await onSettled();
    }
  }

  const steps = run && <SettleSteps run={run} deal={deal} onRetry={settle} busy={busy !== null} />;

  if (m.status === "pending")
    return (
      <>
        {steps}
        <p className="muted small">
          {m.changeRequest
            ? "Waiting for the creator's new version. Verify and settle appear here once it arrives."
            : deal.creatorId
              ? "Waiting for the creator to submit this milestone. Verify and settle appear here once they do."
              : deal.status === "unfunded"
                ? "Fund the escrow above; creators can take the deal once it is funded."
                : deal.status === "open"
                  ? "Waiting for a creator to accept this deal."
                  : "Nobody took this deal."}
        </p>
      </>
    );
  if (m.status === "paid")
    return steps ? (
      <section className="panel stack tight" data-testid="settle-panel">
        <h3>Settled just now</h3>
        {steps}
      </section>
    ) : null;
  if (m.status === "approved") {
    const state = paymentState(m.settlement);
    return (
      <section className="panel stack" data-testid="settle-panel">
        {steps ??
          (state === "paying" ? (
            <span className="small" role="status">
              The payment is being sent right now. This page updates by itself when it is confirmed.
            </span>
          ) : (
            <div className="spread">
              <span className="small">
                {state === "delayed"
                  ? "The payment is delayed. Retrying now resumes the same payment — it never pays twice."
                  : state === "failed"
                    ? "The last payment attempt failed. Retrying resumes the same payment — it never pays twice."
                    : "The payment is under way. If it seems stuck, retrying is safe — it never pays twice."}
              </span>
              <button
                type="button"
                className={paymentStuck(state) ? "btn small" : "btn small secondary"}
                onClick={settle}
                disabled={busy !== null}
                data-testid="retry-payment"
              >
                Retry payment
              </button>
            </div>
          ))}
      </section>
    );
  }
  // Rejected: settling again only helps when the verifier approved but the score was too low.
  const canSettle =
    !undecided && (m.status === "submitted" || (m.status === "rejected" && verdict?.approved));

  return (
    <section className="panel stack" data-testid="settle-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {m.status === "rejected" && !verdict?.approved
          ? "Waiting for a resubmission"
          : undecided
            ? "Needs your decision"
            : "Review and pay"}
      </h3>
      {undecided && verdict && (
        <div className="alert warn small" data-testid="needs-decision">
          {uncertainReason(verdict, deal)}. Nothing has been paid or rejected: look at the post and
          decide below — pay the share you think it earned, or uphold a rejection.
        </div>
      )}
      {m.status === "rejected" && (
        <p className="small">
          {verdict?.approved
            ? "Rejected: the score was below your minimum. The creator can resubmit — or lower the minimum score and settle now."
            : "Rejected. The creator has been asked to resubmit; the new version will appear here."}
        </p>
      )}
      {canSettle && (
        <>
          <div className="form-grid">
            <div className="field">
              <label>
                Minimum score (%)
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  step={5}
                  value={minScore}
                  onChange={(e) => setMinScore(e.target.value)}
                  aria-invalid={!minValid || undefined}
                  aria-describedby={`${id}-min-hint`}
                  disabled={busy !== null}
                />
              </label>
              <span id={`${id}-min-hint`} className={minValid ? "muted small hint" : "field-error"}>
                {minValid
                  ? "Pays only when every required item is there and the score is at least this."
                  : "Enter a percentage between 0 % and 100 %."}
              </span>
            </div>
            <fieldset className="choice" disabled={busy !== null}>
              <legend>Pay via</legend>
              <label className="radio">
                <input
                  type="radio"
                  name={`${id}-via`}
                  value="direct"
                  checked={via === "direct"}
                  onChange={() => setVia("direct")}
                />
                <span>
                  Direct release
                  <span className="muted small block">
                    The verifier releases it from the escrow and pays the fee.
                  </span>
                </span>
              </label>
              <label className="radio" title={relayReason ?? undefined}>
                <input
                  type="radio"
                  name={`${id}-via`}
                  value="relay"
                  checked={via === "relay"}
                  onChange={() => setVia("relay")}
                  disabled={!relay?.supported}
                />
                <span>
                  Gasless relay
                  <span className="muted small block">
                    {relayReason ?? "A relayer submits the verifier's signed release."}
                  </span>
                </span>
              </label>
            </fieldset>
          </div>
          {verdict && passes !== null && (
            <p
              className={passes ? "alert ok small" : "alert error small"}
              data-testid="gate-preview"
            >
              {passes
                ? `Passes the gate (${gateReason(verdict, min)}). Settling pays ${formatUsdc(expectedPayout(m.amount, verdict.score))} to the creator — ${formatUsdc(m.amount)} × ${formatScore(verdict.score)} — and returns ${formatUnitsUsdc(toUnits(m.amount) - toUnits(expectedPayout(m.amount, verdict.score)))} to you.`
                : `Does not pass the gate: ${gateReason(verdict, min)}. Settling marks it rejected so the creator can resubmit.`}
            </p>
          )}
          {verifyError && <ErrorNote error={verifyError} />}
          {confirming && (
            <SettleConfirm
              deal={deal}
              milestone={m}
              verdict={verdict}
              onConfirm={() => {
                setConfirming(false);
                void settle();
              }}
              onBack={() => setConfirming(false)}
            />
          )}
          {!confirming && (
            <div className="row">
              {!verdict && (
                <button
                  type="button"
                  className="btn secondary"
                  onClick={verify}
                  disabled={busy !== null}
                >
                  {busy === "verify" ? "Verifying…" : "Verify"}
                </button>
              )}
              <button
                type="button"
                className="btn"
                // A known failing verdict moves no money: no need to confirm that.
                onClick={() => (passes === false ? void settle() : setConfirming(true))}
                disabled={busy !== null || !minValid}
              >
                {busy === "settle"
                  ? "Settling…"
                  : passes === false
                    ? "Reject and ask to resubmit"
                    : "Settle"}
              </button>
            </div>
          )}
        </>
      )}
      {steps}
    </section>
  );
}

/**
 * "Release this milestone?": exactly what the escrow pays the creator and returns to the
 * brand (or, before a verdict, how it will be decided), before any money moves.
 */
function SettleConfirm({
  deal,
  milestone: m,
  verdict,
  onConfirm,
  onBack,
}: {
  deal: DealJson;
  milestone: MilestoneJson;
  verdict: VerdictJson | null;
  onConfirm(): void;
  onBack(): void;
}) {
  const payout = verdict ? expectedPayout(m.amount, verdict.score) : null;
  const rest = payout === null ? null : (toUnits(m.amount) - toUnits(payout)).toString();
  const creatorWallet = deal.escrow.creatorWallet ?? deal.creator?.walletAddress ?? null;
  return (
    <div className="confirm stack tight" data-testid="settle-confirm">
      <strong>Release “{m.title}” from the escrow?</strong>
      {payout !== null && rest !== null ? (
        <dl className="split-facts">
          <div>
            <dt>To the creator</dt>
            <dd className="kv-value">
              {formatUsdc(payout)}{" "}
              {creatorWallet && (
                <span className="muted small">
                  to <AddressLink address={creatorWallet} />
                </span>
              )}
            </dd>
          </div>
          <div>
            <dt>Back to you</dt>
            <dd className="kv-value">
              {formatUnitsUsdc(BigInt(rest))}{" "}
              {deal.escrow.refundTo && (
                <span className="muted small">
                  to <AddressLink address={deal.escrow.refundTo} />
                </span>
              )}
            </dd>
          </div>
        </dl>
      ) : (
        <span className="small">
          The verifier checks the deliverable first. If it passes, {formatUsdc(m.amount)} × its
          score goes to the creator and the rest back to you, in one transaction; if not, nothing
          moves and the creator can resubmit.
        </span>
      )}
      <span className="muted small">One escrow transaction; it cannot be undone.</span>
      <div className="row">
        <button type="button" className="btn" onClick={onConfirm}>
          Confirm and release
        </button>
        <button type="button" className="btn ghost" onClick={onBack}>
          Back
        </button>
      </div>
    </div>
  );
}

/** An error from verify or settle, with what the brand can do about it. */
export function ErrorNote({ error }: { error: ApiError }) {
  return (
    <div className="alert error small" role="alert">
      {error.message}
      {error.status === 502 && " Nothing was lost — trying again is safe."}
    </div>
  );
}
