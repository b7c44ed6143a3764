"use client";

import { type FormEvent, useId, useState } from "react";
import { getAddress, isAddress, zeroAddress } from "viem";
import { asApiError, useRequestDeposit } from "../queries";

// The refund address: where everything not paid to the creator goes back (remainders,
// refunds, a cancel, an over-payment). By default the brand's own wallet (the server names it);
// any wallet or exchange deposit address on the same network will do. Checked here, and again
// by the server.

/** Why `text` cannot be a refund address, or null when it can. */
export function refundAddressProblem(text: string, notAllowed: string[] = []): string | null {
  const value = text.trim();
  if (!value) return "Enter the address refunds should go to.";
  if (!/^0x[0-9a-fA-F]{40}$/.test(value))
    return "An address starts with 0x followed by 40 letters and digits (0–9, a–f).";
  if (!isAddress(value)) return "This address has a typo: its capital letters do not match.";
  if (value.toLowerCase() === zeroAddress) return "Money sent to this address is lost.";
  if (notAllowed.some((a) => a.toLowerCase() === value.toLowerCase()))
    return "Refunds cannot go back to the deal's own deposit address.";
  return null;
}

export function RefundAddressForm({
  dealId,
  current,
  depositAddress,
  submitLabel,
  onDone,
  onCancel,
}: {
  dealId: string;
  /** The refund address in force (the field starts with it); none before instructions exist. */
  current: string | null;
  depositAddress?: string;
  submitLabel: string;
  onDone?(): void;
  onCancel?(): void;
}) {
  const id = useId();
  const [text, setText] = useState(current ?? "");
  const [touched, setTouched] = useState(false);
  const request = useRequestDeposit(dealId);
  const problem = refundAddressProblem(text, depositAddress ? [depositAddress] : []);
  const shownProblem = touched ? problem : null;
  const serverError = request.error ? asApiError(request.error) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    request.mutate(getAddress(text.trim()), { onSuccess: onDone });
  }

  return (
    <form className="stack tight" onSubmit={submit} noValidate data-testid="refund-form">
      <div className="field">
        <label htmlFor={`${id}-input`}>Refund address</label>
        <input
          id={`${id}-input`}
          className="mono"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => setTouched(true)}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={shownProblem ? true : undefined}
          aria-describedby={`${id}-hint${shownProblem ? ` ${id}-error` : ""}`}
        />
        <span className="muted small" id={`${id}-hint`}>
          Anything not paid to the creator comes back here: a wallet of yours, or an exchange
          deposit address if the exchange accepts USDC on this network.
        </span>
        {shownProblem && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {shownProblem}
          </span>
        )}
      </div>
      {serverError && (
        <div className="alert error" role="alert">
          {serverError.message}
        </div>
      )}
      <div className="row">
        <button type="submit" className="btn" disabled={request.isPending}>
          {request.isPending ? "Saving…" : submitLabel}
        </button>
        {onCancel && (
          <button
            type="button"
            className="btn ghost"
            onClick={onCancel}
            disabled={request.isPending}
          >
            Keep the current one
          </button>
        )}
      </div>
    </form>
  );
}
