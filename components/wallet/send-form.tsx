"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { ApiError, apiFetch } from "@/lib/client/api";
import type { WalletEntryJson, WithdrawalJson } from "@/lib/wallet/schemas";
import { useRefreshUsdcBalances } from "./usdc-balance";
import styles from "./wallet.module.css";

// "Send to an address": USDC out of the signed-in wallet (POST /api/wallet/withdrawals), e.g.
// to an exchange deposit address. Two steps: the form, then a confirmation that shows the
// amount, the destination, the network and the token before anything moves. The send carries
// an Idempotency-Key made for that confirmation, so a double click or a retry sends once.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;

/** "12.5" → 12500000n (6 decimals); null when not a plain decimal amount. */
function units(amount: string): bigint | null {
  if (!AMOUNT.test(amount)) return null;
  const [whole = "0", frac = ""] = amount.split(".");
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
}

/** "12.500000" → "12.50", "0.123400" → "0.1234". */
export function usdcAmount(decimal: string): string {
  const [whole = "0", frac = ""] = decimal.split(".");
  const trimmed = frac.replace(/0+$/, "").padEnd(2, "0");
  return `${Number(whole).toLocaleString("en-US")}.${trimmed}`;
}

type Draft = { to: string; amount: string; key: string };

export function SendForm({
  wallet,
  networkName,
  onDone,
}: {
  wallet: WalletEntryJson;
  networkName: string;
  onDone?: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const refreshBalances = useRefreshUsdcBalances();
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<{ to?: string; amount?: string }>({});
  const [draft, setDraft] = useState<Draft | null>(null);
  const confirmRef = useRef<HTMLElement>(null);
  const balance = units(wallet.balance) ?? 0n;

  const send = useMutation({
    mutationFn: (d: Draft) =>
      apiFetch<{ withdrawal: WithdrawalJson }>("/api/wallet/withdrawals", {
        body: { to: d.to, amount: d.amount },
        headers: { "idempotency-key": d.key },
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["wallet-overview"] });
      await refreshBalances();
    },
  });

  function review(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    const target = to.trim();
    const value = amount.trim();
    if (!ADDRESS.test(target))
      next.to = "Enter a 0x address: 0x followed by 40 letters and digits.";
    else if (target.toLowerCase() === wallet.address.toLowerCase())
      next.to = "That is this wallet's own address.";
    const wanted = units(value);
    if (wanted === null) next.amount = "Enter an amount such as 25 or 12.50 (at most 6 decimals).";
    else if (wanted <= 0n) next.amount = "Enter an amount above 0.";
    else if (wanted > balance)
      next.amount = `This wallet holds ${usdcAmount(wallet.balance)} USDC.`;
    setErrors(next);
    if (next.to || next.amount) return;
    send.reset();
    setDraft({ to: target, amount: value, key: crypto.randomUUID() });
    requestAnimationFrame(() => confirmRef.current?.focus());
  }

  const sent = send.data?.withdrawal;
  const failure = send.error;
  const failureText =
    failure instanceof ApiError
      ? failure.code === "insufficient_funds"
        ? `${failure.message}`
        : failure.code === "invalid_request"
          ? `${failure.message} Check the address and the amount.`
          : failure.message
      : failure
        ? "Something went wrong. Nothing was sent; try again."
        : null;

  if (sent)
    return (
      <div className="stack tight" data-testid="send-result">
        <p className="ok-text" role="status">
          {sent.status === "confirmed"
            ? `Sent ${usdcAmount(sent.amount)} USDC to ${sent.to}.`
            : `${usdcAmount(sent.amount)} USDC to ${sent.to} is on its way.`}{" "}
          {sent.explorerUrl && <a href={sent.explorerUrl}>View transaction</a>}
        </p>
        <div className="row">
          <button
            type="button"
            className="btn secondary"
            onClick={() => {
              send.reset();
              setDraft(null);
              setTo("");
              setAmount("");
              onDone?.();
            }}
          >
            Done
          </button>
        </div>
      </div>
    );

  if (draft)
    return (
      <section
        className={`stack tight ${styles.confirm}`}
        ref={confirmRef}
        tabIndex={-1}
        aria-labelledby={`${id}-confirm`}
        data-testid="send-confirm"
      >
        <h3 id={`${id}-confirm`}>Check before you send</h3>
        <dl className={styles.summary}>
          <dt>Amount</dt>
          <dd data-testid="confirm-amount">{usdcAmount(draft.amount)} USDC</dd>
          <dt>To</dt>
          <dd className="mono" data-testid="confirm-to">
            {draft.to}
          </dd>
          <dt>Network</dt>
          <dd data-testid="confirm-network">{networkName}</dd>
          <dt>Token</dt>
          <dd>USDC</dd>
          <dt>From</dt>
          <dd className="mono">{wallet.address}</dd>
          <dt>Fee</dt>
          <dd>None: Milestone covers it</dd>
        </dl>
        <p className="small muted" style={{ margin: 0 }}>
          Transfers cannot be undone. If this is an exchange deposit address, make sure the exchange
          accepts USDC on {networkName}.
        </p>
        {failureText && (
          <div className="alert error small" role="alert">
            {failureText}
          </div>
        )}
        <div className="row">
          <button
            type="button"
            className="btn"
            disabled={send.isPending}
            onClick={() => send.mutate(draft)}
          >
            {send.isPending ? "Sending…" : `Send ${usdcAmount(draft.amount)} USDC`}
          </button>
          <button
            type="button"
            className="btn ghost"
            disabled={send.isPending}
            onClick={() => {
              send.reset();
              setDraft(null);
            }}
          >
            Back
          </button>
        </div>
        <span className="visually-hidden" aria-live="polite">
          {send.isPending ? "Sending…" : ""}
        </span>
      </section>
    );

  return (
    <form className="stack tight" onSubmit={review} noValidate data-testid="send-form">
      <label className="field" htmlFor={`${id}-to`}>
        <span>Recipient address</span>
        <input
          id={`${id}-to`}
          name="to"
          className="mono"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={errors.to ? true : undefined}
          aria-describedby={`${id}-to-hint${errors.to ? ` ${id}-to-error` : ""}`}
        />
        <span id={`${id}-to-hint`} className="small muted hint">
          A wallet or an exchange deposit address for USDC on {networkName}.
        </span>
        {errors.to && (
          <span id={`${id}-to-error`} className="field-error">
            {errors.to}
          </span>
        )}
      </label>
      <label className="field" htmlFor={`${id}-amount`}>
        <span>Amount (USDC)</span>
        <span className="row tight">
          <input
            id={`${id}-amount`}
            name="amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            placeholder="0.00"
            autoComplete="off"
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={`${id}-amount-hint${errors.amount ? ` ${id}-amount-error` : ""}`}
          />
          <button
            type="button"
            className="btn small ghost"
            onClick={() => setAmount(wallet.balance.replace(/\.?0+$/, ""))}
          >
            Max
          </button>
        </span>
        <span id={`${id}-amount-hint`} className="small muted hint">
          Available: {usdcAmount(wallet.balance)} USDC
        </span>
        {errors.amount && (
          <span id={`${id}-amount-error`} className="field-error">
            {errors.amount}
          </span>
        )}
      </label>
      <div className="row">
        <button type="submit" className="btn">
          Review
        </button>
      </div>
    </form>
  );
}
