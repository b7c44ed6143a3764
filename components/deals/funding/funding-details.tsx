"use client";

import { AddressLink } from "../escrow-views";
import styles from "./funding.module.css";
import type { FundingJson } from "./types";

// "Details": how funding works underneath, for whoever wants it (the rest of the panel says it
// without the vocabulary). Closed by default.

export function FundingDetails({ terms }: { terms: FundingJson }) {
  const deposit = terms.deposit;
  return (
    <details className={styles.details} data-testid="funding-details">
      <summary>Details</summary>
      <div className="stack tight small">
        {deposit && (
          <>
            <p>
              The deposit address is a forwarder contract made for this deal alone (a CREATE2
              counterfactual address). It can do two things only: fund this deal in the escrow with
              exactly its terms, or send what it holds back to the refund address. Milestone never
              holds the money, and anyone may trigger the sweep; the service&apos;s watcher does it
              when the full amount has arrived, and returns any excess.
            </p>
            <p>
              Payment URI (EIP-681), the content of the QR code:{" "}
              <code className="break" data-testid="payment-uri">
                {deposit.paymentUri}
              </code>
            </p>
          </>
        )}
        <dl className="confirm-facts">
          <div>
            <dt>Escrow</dt>
            <dd className="kv-value">
              <AddressLink address={terms.escrow} />
            </dd>
          </div>
          <div>
            <dt>USDC token</dt>
            <dd className="kv-value">
              <AddressLink address={terms.usdc} />
            </dd>
          </div>
          <div>
            <dt>Chain id</dt>
            <dd className="kv-value">{terms.chainId}</dd>
          </div>
          <div>
            <dt>Deal ref</dt>
            <dd className="kv-value mono">{terms.dealRef}</dd>
          </div>
        </dl>
        <p>
          From a connected wallet: <em>Approve and fund</em> sends two transactions (an ERC-20
          approve, then <code>fund</code> on the escrow), paid for with the chain&apos;s gas.{" "}
          <em>Sign instead</em> signs an EIP-3009 <code>ReceiveWithAuthorization</code> whose nonce
          binds this deal&apos;s terms; the service&apos;s relayer submits it and pays the gas.
        </p>
      </div>
    </details>
  );
}
