"use client";

import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";
import styles from "./funding.module.css";

// Two ways to pay, as tabs (WAI-ARIA tabs: arrow keys move between them, Tab enters the
// panel). Both panels stay mounted, so a wallet funding under way keeps its progress when the
// brand looks at the other tab.

export type PaymentTab = { id: string; label: string; content: ReactNode };

export function PaymentTabs({ tabs, label }: { tabs: PaymentTab[]; label: string }) {
  const base = useId();
  const [selected, setSelected] = useState(tabs[0]?.id);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(e: KeyboardEvent, index: number) {
    const last = tabs.length - 1;
    const next =
      e.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : e.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    setSelected(tabs[next]?.id);
    buttons.current[next]?.focus();
  }

  return (
    <div className="stack">
      <div className={styles.tabs} role="tablist" aria-label={label}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={selected === tab.id}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={selected === tab.id ? 0 : -1}
            className={styles.tab}
            onClick={() => setSelected(tab.id)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${tab.id}`}
          aria-labelledby={`${base}-tab-${tab.id}`}
          hidden={selected !== tab.id}
          data-testid={`pay-${tab.id}`}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
