"use client";

import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { ApiError } from "@/lib/client/api";
import { asApiError } from "./queries";

// An action that changes a deal (a decision, an appeal, a refund, a cancel): asked for,
// confirmed where money moves, sent once (a TanStack Query mutation: no second send while
// one is pending), and the deal read again afterwards so the page shows what happened.

export type ConfirmedAction<V> = {
  /** The confirmation is showing. */
  confirming: boolean;
  /** Shows the confirmation (and clears the last error). */
  ask(): void;
  /** Back from the confirmation without sending. */
  back(): void;
  /** Sends the action; errors land in `error`, never thrown. */
  send(variables: V): Promise<void>;
  busy: boolean;
  error: ApiError | null;
};

export function useConfirmedAction<V = void, T = unknown>(
  action: (variables: V) => Promise<T>,
  options: {
    /** Reads the deal again once the action is done. */
    onChanged(): Promise<unknown>;
    /** Also read it again after a failure (the action may have half-happened: a payment sent). */
    refreshOnError?: boolean;
    onSuccess?(result: T): void;
  },
): ConfirmedAction<V> {
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: async (result) => {
      options.onSuccess?.(result);
      setConfirming(false);
      await options.onChanged();
    },
    onError: async () => {
      setConfirming(false);
      if (options.refreshOnError) await options.onChanged();
    },
  });
  return {
    confirming,
    ask: () => {
      mutation.reset();
      setConfirming(true);
    },
    back: () => setConfirming(false),
    send: async (variables) => {
      await mutation.mutateAsync(variables).catch(() => {});
    },
    busy: mutation.isPending,
    error: mutation.error ? asApiError(mutation.error) : null,
  };
}

/**
 * The confirmation before an action: what will happen (children), then the confirm button
 * (its label while sending in `busyLabel`) and "Back".
 */
export function ConfirmBox({
  children,
  confirmLabel,
  busyLabel,
  busy,
  danger,
  backLabel = "Back",
  onConfirm,
  onBack,
  testId,
}: {
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  danger?: boolean;
  backLabel?: string;
  onConfirm(): void;
  onBack(): void;
  testId?: string;
}) {
  return (
    <div className="confirm stack tight" data-testid={testId}>
      {children}
      <div className="row">
        <button
          type="button"
          className={danger ? "btn danger" : "btn"}
          onClick={onConfirm}
          disabled={busy}
          data-testid={testId ? `${testId}-button` : undefined}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className="btn ghost" onClick={onBack} disabled={busy}>
          {backLabel}
        </button>
      </div>
    </div>
  );
}

/** The last action's error, as the forms show it. */
export function ActionError({ error, children }: { error: ApiError | null; children?: ReactNode }) {
  if (!error) return null;
  return (
    <div className="alert error small" role="alert">
      {error.message}
      {children}
    </div>
  );
}
