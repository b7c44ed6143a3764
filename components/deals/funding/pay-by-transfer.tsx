"use client";

import { useChainInfo } from "@/components/wallet";
import { onrampUrl } from "@/lib/wallet/ramps";
import { formatUnitsUsdc } from "../format";
import { asApiError, useCheckDeposit } from "../queries";
import { DepositInstructions, plainAmount } from "./deposit-instructions";
import { RefundAddressForm } from "./refund-address";
import type { DepositJson, FundedNotice } from "./types";

// "Pay by transfer", the default for a brand: no browser wallet, no signature, no fees to
// hold. The deal's deposit address comes with the funding state, for the brand's own wallet
// as refund address; a brand without one names a refund address first. Then the amount,
// network, token and address, and the deposit's live status.

export function PayByTransfer({
  dealId,
  totalUnits,
  deposit,
  onrampTemplate,
  onFunded,
}: {
  dealId: string;
  totalUnits: string;
  deposit: DepositJson | null;
  /** ONRAMP_URL from the server's configuration; null: no card on-ramp on this deployment. */
  onrampTemplate: string | null;
  onFunded(notice: FundedNotice): Promise<void>;
}) {
  const info = useChainInfo();
  if (!deposit)
    return (
      <div className="stack" data-testid="deposit-request">
        <p className="small">
          Send {formatUnitsUsdc(BigInt(totalUnits))} in USDC from any wallet or exchange account
          (Coinbase, Kraken, Binance…) to an address made for this deal. No browser wallet needed.
          First, say where money should come back if it is not paid to the creator.
        </p>
        <RefundAddressForm dealId={dealId} current={null} submitLabel="Show payment instructions" />
      </div>
    );

  const missing = BigInt(deposit.amountUnits) - BigInt(deposit.receivedUnits);
  const link = onrampUrl(onrampTemplate, {
    address: deposit.address,
    amount: plainAmount(missing > 0n ? missing : BigInt(deposit.amountUnits)),
    network: info.name,
  });
  const waiting = deposit.status === "awaiting" || deposit.status === "underpaid";
  return (
    <div className="stack">
      <DepositInstructions dealId={dealId} deposit={deposit} onrampUrl={link} />
      {waiting && <CheckPayment dealId={dealId} onFunded={onFunded} />}
    </div>
  );
}

/** "Sent it already?": look at the deposit address now rather than at the next check. */
function CheckPayment({
  dealId,
  onFunded,
}: {
  dealId: string;
  onFunded(notice: FundedNotice): Promise<void>;
}) {
  const check = useCheckDeposit(dealId);
  return (
    <div className="row small muted">
      <span>Sent it already?</span>
      <button
        type="button"
        className="btn small ghost"
        disabled={check.isPending}
        data-testid="deposit-check"
        onClick={() =>
          check.mutate(undefined, {
            onSuccess: (deal) =>
              deal && deal.status !== "unfunded"
                ? onFunded({ total: deal.escrow.budget, txHash: deal.escrow.fundingTxHash })
                : undefined,
          })
        }
      >
        {check.isPending ? "Checking…" : "Check for my payment"}
      </button>
      {check.isSuccess && check.data === null && (
        <span role="status">Not all of it has arrived yet: the status above is current.</span>
      )}
      {check.error && (
        <span className="field-error" role="alert">
          {asApiError(check.error).message}
        </span>
      )}
    </div>
  );
}
