"use client";

import { TxLink } from "../escrow-views";
import type { Run, Step, StepState } from "./types";

// A wallet funding's progress: waiting for the wallet → sent (with its transaction) → confirmed.

const stepClass: Record<StepState, string> = {
  waiting: "waiting",
  wallet: "running",
  sent: "running",
  done: "done",
  skipped: "done",
  failed: "failed",
};

export function FundingSteps({ run, total }: { run: Run; total: string }) {
  if (run.method === "signature")
    return (
      <ol className="steps" aria-live="polite" data-testid="funding-steps">
        <li className={stepClass[run.sign.state]}>
          <span>
            {run.sign.state === "wallet"
              ? "Sign the authorization in your wallet…"
              : run.sign.state === "done"
                ? `Signed: the escrow may take ${total} from your wallet for this deal only`
                : run.sign.state === "failed"
                  ? "Not signed"
                  : `Sign an authorization for ${total}`}
          </span>
        </li>
        <li className={stepClass[run.relay.state]}>
          <span data-testid={run.relay.state === "done" ? "funding-confirmed" : undefined}>
            {run.relay.state === "wallet"
              ? "The service is submitting it and paying the fee…"
              : run.relay.state === "done"
                ? `Confirmed — ${total} locked in the escrow. The deal is open.`
                : run.relay.state === "failed"
                  ? "Not submitted"
                  : "The service submits it (no fees for you)"}
          </span>
        </li>
      </ol>
    );

  return (
    <ol className="steps" aria-live="polite" data-testid="funding-steps">
      <TxStep
        step={run.approve}
        what="approval"
        waiting={`Approve: let the escrow take ${total}`}
        done={`Approved: the escrow may take ${total}`}
        skipped={`Already approved for ${total}`}
      />
      <TxStep
        step={run.fund}
        what="funding"
        waiting={`Fund: lock ${total} in the escrow`}
        done={`${total} locked in the escrow`}
        skipped="The escrow already holds it"
      />
      <li className={stepClass[run.open.state]}>
        <span data-testid={run.open.state === "done" ? "funding-confirmed" : undefined}>
          {run.open.state === "wallet"
            ? "Checking the escrow and opening the deal…"
            : run.open.state === "done"
              ? "Confirmed — the deal is open to creators"
              : run.open.state === "failed"
                ? "The deal was not opened"
                : "Open the deal to creators"}
        </span>
      </li>
    </ol>
  );
}

function TxStep({
  step,
  what,
  waiting,
  done,
  skipped,
}: {
  step: Step;
  what: string;
  waiting: string;
  done: string;
  skipped: string;
}) {
  return (
    <li className={stepClass[step.state]}>
      <span>
        {step.state === "wallet"
          ? `Confirm the ${what} in your wallet…`
          : step.state === "sent"
            ? `${what[0]?.toUpperCase()}${what.slice(1)} sent — waiting for confirmation…`
            : step.state === "done"
              ? done
              : step.state === "skipped"
                ? skipped
                : step.state === "failed"
                  ? `The ${what} did not go through`
                  : waiting}
      </span>
      {step.hash && <TxLink hash={step.hash} />}
    </li>
  );
}
