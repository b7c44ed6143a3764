"use client";

import { useState } from "react";
import { useChainInfo } from "@/components/wallet";
import { formatUnitsUsdc, shortHex } from "../format";
import { CopyField } from "./copy-field";
import { DepositStatus } from "./deposit-status";
import styles from "./funding.module.css";
import { PaymentQr } from "./payment-qr";
import { RefundAddressForm } from "./refund-address";
import type { DepositJson } from "./types";

// "Pay by transfer": what to send, on which network, to which address — each with a Copy
// button — and the same as a QR code; where refunds go; the deposit's live status; and, where
// this deployment has one, a card on-ramp that fills in the address and the amount.

/** "200", "12.5": an amount as a withdrawal form wants it (no unit, no thousands separator). */
export function plainAmount(units: bigint): string {
  const frac = (units % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${units / 1_000_000n}${frac ? `.${frac}` : ""}`;
}

/** The payment URI for another amount (the top-up of an under-paid deposit). */
export const withAmount = (uri: string, units: bigint) =>
  uri.replace(/([?&]uint256=)\d+/, `$1${units}`);

export function DepositInstructions({
  dealId,
  deposit,
  onrampUrl,
}: {
  dealId: string;
  deposit: DepositJson;
  onrampUrl: string | null;
}) {
  const info = useChainInfo();
  const [changingRefund, setChangingRefund] = useState(false);
  const units = BigInt(deposit.amountUnits);
  const received = BigInt(deposit.receivedUnits);
  // Under-paid: what is still missing is what to send (a top-up to the same address).
  const topUp = deposit.status === "underpaid" && received < units;
  const toSend = topUp ? units - received : units;
  const amount = formatUnitsUsdc(toSend);
  const open = deposit.status === "awaiting" || deposit.status === "underpaid";
  // Its address binds the refund address: that may change only while nothing came in.
  const refundChangeable = deposit.status === "awaiting" && received === 0n;
  const network = info.chainId === deposit.chainId ? info.displayName : deposit.network;

  return (
    <div className="stack" data-testid="deposit-instructions">
      <DepositStatus deposit={deposit} />
      {open && (
        <>
          <p className="small">
            {topUp ? "Send the remaining " : "Send "}
            <strong>{amount}</strong> on <strong>{network}</strong> to the address below, from any
            wallet or exchange account.
            {topUp
              ? " The deal opens as soon as it has arrived."
              : " One transfer or several: the deal opens as soon as the full amount has arrived."}{" "}
            Send only USDC on {network}: other coins or networks do not reach this deal.
          </p>
          <div className={styles.instructions}>
            <dl className={styles.facts}>
              <CopyField
                label={topUp ? "Amount still to send" : "Amount"}
                value={plainAmount(toSend)}
                testId="deposit-amount"
                hint={topUp ? `of ${formatUnitsUsdc(units)}` : undefined}
              >
                {amount}
              </CopyField>
              <CopyField label="Network" value={network} testId="deposit-network" />
              <CopyField
                label="Token"
                value={deposit.token.address}
                testId="deposit-token"
                hint={
                  <>
                    contract <span className="mono">{shortHex(deposit.token.address)}</span>
                  </>
                }
              >
                {deposit.token.symbol}
              </CopyField>
              <CopyField
                label="Deposit address"
                value={deposit.address}
                testId="deposit-address"
                mono
              />
            </dl>
            <PaymentQr
              uri={topUp ? withAmount(deposit.paymentUri, toSend) : deposit.paymentUri}
              description={`send ${amount} on ${network} to ${deposit.address}`}
            />
          </div>
          {onrampUrl && (
            <p className="row">
              <a
                className="btn secondary"
                href={onrampUrl}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="onramp-link"
              >
                Buy USDC with a card
              </a>
              <span className="muted small">
                Opens a payment provider with this address and amount filled in.
              </span>
            </p>
          )}
        </>
      )}
      <div className="stack tight" data-testid="refund-address">
        {changingRefund ? (
          <RefundAddressForm
            dealId={dealId}
            current={deposit.refundAddress}
            depositAddress={deposit.address}
            submitLabel="Save the refund address"
            onDone={() => setChangingRefund(false)}
            onCancel={() => setChangingRefund(false)}
          />
        ) : (
          <p className="small row tight">
            <span>
              Refunds go to{" "}
              <span className="mono break" data-testid="refund-address-value">
                {deposit.refundAddress}
              </span>
            </span>
            {refundChangeable && (
              <button
                type="button"
                className="btn small ghost"
                onClick={() => setChangingRefund(true)}
              >
                Change
              </button>
            )}
          </p>
        )}
      </div>
    </div>
  );
}
