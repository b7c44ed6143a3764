"use client";

import { type ClipboardEvent, type KeyboardEvent, useState } from "react";

// A list of short values typed as chips: Enter, comma or space adds one, × removes it,
// Backspace in the empty box removes the last. Pasting "a, b c" adds three. Whatever is
// still typed when the box loses focus is added too, so nothing is lost on submit.

type Props = {
  id: string;
  label: string;
  hint?: string;
  values: string[];
  onChange(values: string[]): void;
  /** Added to values typed without it ("ad" → "#ad"). */
  prefix?: "#" | "@";
  placeholder?: string;
  /** Per-value problems, shown on the chip (index → message). */
  itemErrors?: Map<number, string>;
  errorId?: string;
  invalid?: boolean;
};

const split = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export function ChipInput(props: Props) {
  const { id, label, hint, values, onChange, prefix, placeholder, itemErrors } = props;
  const [draft, setDraft] = useState("");

  function add(text: string) {
    const next = [...values];
    for (const raw of split(text)) {
      const value = prefix && !raw.startsWith(prefix) ? `${prefix}${raw}` : raw;
      if (!next.some((v) => v.toLowerCase() === value.toLowerCase())) next.push(value);
    }
    if (next.length !== values.length) onChange(next);
    setDraft("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      if (draft.trim()) add(draft);
    } else if (event.key === "Backspace" && draft === "" && values.length > 0) {
      onChange(values.slice(0, -1));
    }
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const text = event.clipboardData.getData("text");
    if (/[\s,]/.test(text.trim())) {
      event.preventDefault();
      add(draft + text);
    }
  }

  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, props.errorId].filter(Boolean).join(" ") || undefined;

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span id={hintId} className="muted small">
          {hint}
        </span>
      )}
      <div className={props.invalid ? "chip-input invalid" : "chip-input"}>
        {values.length > 0 && (
          <ul className="chips">
            {values.map((value, index) => {
              const problem = itemErrors?.get(index);
              return (
                <li
                  key={value}
                  className={problem ? "chip missing break" : "chip break"}
                  title={problem}
                >
                  {value}
                  <button
                    type="button"
                    aria-label={`Remove ${value}`}
                    onClick={() => onChange(values.filter((_, i) => i !== index))}
                  >
                    ×
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <input
          id={id}
          value={draft}
          placeholder={placeholder}
          onChange={(e) => {
            const text = e.target.value;
            // A separator typed at the end (mobile keyboards send no key events) commits.
            if (/[\s,]$/.test(text) && text.trim()) add(text);
            else setDraft(text);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => draft.trim() && add(draft)}
          aria-invalid={props.invalid || undefined}
          aria-describedby={describedBy}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
        />
      </div>
    </div>
  );
}
