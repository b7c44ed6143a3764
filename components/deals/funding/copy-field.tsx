"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import styles from "./funding.module.css";

// One fact to paste elsewhere, as a term of a <dl> (an exchange's withdrawal form, a wallet): its label, the value
// in full, and a Copy button. The outcome is announced ("Copied") through a live region; where
// the clipboard is refused, the value is selected for the keyboard instead.

type Outcome = "copied" | "selected" | null;

export function CopyField({
  label,
  value,
  children,
  hint,
  testId,
  mono = false,
}: {
  label: string;
  /** Exactly what is copied. */
  value: string;
  /** What is shown, when it is not the value itself. */
  children?: ReactNode;
  hint?: ReactNode;
  testId?: string;
  /** An address or a code: monospaced, broken anywhere. */
  mono?: boolean;
}) {
  const valueRef = useRef<HTMLElement>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    let result: Outcome = "copied";
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      result = "selected";
      const node = valueRef.current;
      if (node) window.getSelection()?.selectAllChildren(node);
    }
    setOutcome(result);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setOutcome(null), 2500);
  }

  // One term of the facts list (a <dl> around the fields).
  return (
    <div className={styles.copyField} data-testid={testId}>
      <dt className={styles.copyLabel}>{label}</dt>
      <dd className={styles.copyValue}>
        {mono ? (
          <code ref={valueRef} data-value={value}>
            {children ?? value}
          </code>
        ) : (
          <strong ref={valueRef} data-value={value}>
            {children ?? value}
          </strong>
        )}
        {hint && <span className="muted small">{hint}</span>}
      </dd>
      <dd className={styles.copyAction}>
        <button type="button" className={`btn small secondary ${styles.copyButton}`} onClick={copy}>
          {outcome === "copied" ? "Copied" : "Copy"}
          <span className="visually-hidden"> {label.toLowerCase()}</span>
        </button>
        <span className="visually-hidden" role="status" aria-live="polite">
          {outcome === "copied"
            ? `Copied ${label.toLowerCase()}`
            : outcome === "selected"
              ? `${label} selected: copy it with your keyboard`
              : ""}
        </span>
      </dd>
    </div>
  );
}
