"use client";

import { formatUnitsUsdc, shortHex } from "../format";
import styles from "./funding.module.css";
import type { DepositJson } from "./types";

// Where the deposit stands, announced as it changes (the funding state is polled while it
// waits): awaiting → received X of Y (a top-up completes it) → funded, or returned.

export function DepositStatus({ deposit }: { deposit: DepositJson }) {
  const amount = BigInt(deposit.amountUnits);
  const received = BigInt(deposit.receivedUnits);
  const missing = amount > received ? amount - received : 0n;
  const percent = amount > 0n ? Number((received * 100n) / amount) : 0;
  return (
    <div
      className={`${styles.status} ${styles[deposit.status]}`}
      role="status"
      aria-live="polite"
      data-testid="deposit-status"
      data-status={deposit.status}
    >
      {deposit.status === "awaiting" ? (
        <p>
          <strong>Waiting for your payment.</strong> This page updates on its own once it arrives.
        </p>
      ) : deposit.status === "underpaid" ? (
        <>
          <p>
            <strong>
              Received {formatUnitsUsdc(received)} of {formatUnitsUsdc(amount)}.
            </strong>{" "}
            {formatUnitsUsdc(missing)} to go: a top-up to the same address completes it.
          </p>
          <div
            className={styles.meter}
            role="progressbar"
            aria-label="Received so far"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span style={{ width: `${percent}%` }} />
          </div>
        </>
      ) : deposit.status === "funded" ? (
        <p>
          <strong>Received {formatUnitsUsdc(received)}. The deal is funded.</strong> Opening it to
          creators…
        </p>
      ) : (
        <p>
          <strong>Your payment was sent back</strong> to{" "}
          <span className="mono" title={deposit.refundAddress}>
            {shortHex(deposit.refundAddress)}
          </span>
          .
        </p>
      )}
    </div>
  );
}
