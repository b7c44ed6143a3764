"use client";

import { useChainInfo } from "@/components/wallet";
import { AddressLink } from "../escrow-views";
import { type DealJson, formatDate, formatUnitsUsdc } from "../format";
import type { FundingJson } from "./types";

// Nothing moves before the brand has seen exactly what is locked and where refunds go.

export function WalletConfirm({
  deal,
  terms,
  wallet,
  noGas,
  gasless,
  busy,
  onTransactions,
  onSignature,
  onBack,
}: {
  deal: DealJson;
  terms: FundingJson;
  wallet: string;
  noGas: boolean;
  gasless: boolean;
  busy: boolean;
  onTransactions(): void;
  onSignature(): void;
  onBack(): void;
}) {
  const info = useChainInfo();
  const symbol = info.nativeCurrency.symbol;
  const deadline = new Date(terms.deadline * 1000).toISOString();
  const refundable = new Date((terms.deadline + terms.graceSeconds) * 1000).toISOString();
  return (
    <div className="confirm stack" data-testid="funding-confirm">
      <p>
        <strong>
          Lock {formatUnitsUsdc(BigInt(terms.totalUnits))} in the escrow for “{deal.title}”.
        </strong>
      </p>
      <dl className="confirm-facts">
        <div>
          <dt>From</dt>
          <dd className="kv-value">
            your wallet <AddressLink address={wallet} />
          </dd>
        </div>
        <div>
          <dt>Into</dt>
          <dd className="kv-value">
            the escrow contract <AddressLink address={terms.escrow} /> on {info.displayName}
          </dd>
        </div>
        <div>
          <dt>Paid out</dt>
          <dd className="kv-value">
            only to the creator who takes the deal, milestone by milestone, when Milestone&apos;s
            verifier (<AddressLink address={terms.evaluator} />) releases it: amount × the AI&apos;s
            score
          </dd>
        </div>
        <div>
          <dt>Refunds go to</dt>
          <dd className="kv-value">
            this same wallet: the unpaid part of each milestone; everything if you cancel before a
            creator takes the deal; and any milestone still locked after{" "}
            {formatDate(refundable, true)} (the deadline, {formatDate(deadline)}, plus 7 days)
          </dd>
        </div>
      </dl>
      {noGas && gasless && (
        <div className="alert warn small">
          No {symbol} for fees in this wallet: sign instead, the service pays them.
        </div>
      )}
      <div className="row">
        <button
          type="button"
          className={noGas && gasless ? "btn secondary" : "btn"}
          disabled={busy}
          onClick={onTransactions}
        >
          Approve and fund
        </button>
        {gasless && (
          <button
            type="button"
            className={noGas ? "btn" : "btn secondary"}
            disabled={busy}
            onClick={onSignature}
            title="Sign once instead of sending transactions: the service pays the network fees"
          >
            Sign instead (no fees)
          </button>
        )}
        <button type="button" className="btn ghost" disabled={busy} onClick={onBack}>
          Back
        </button>
      </div>
      <p className="muted small">
        Approve and fund: two transactions from your wallet (allow the escrow to take the total,
        then lock it). Sign instead: one signature, and the service submits it.
      </p>
    </div>
  );
}
