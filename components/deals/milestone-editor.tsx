"use client";

import { ChipInput } from "./chip-input";
import { FieldError } from "./field-error";
import { errorId, type FieldErrors } from "./field-errors";

// One milestone of the deal form (create and edit): title, amount, due date and requirements.

export type MilestoneDraft = {
  key: string;
  title: string;
  amount: string;
  dueDate: string;
  hashtags: string[];
  mentions: string[];
  links: string[];
  criteria: string;
  /** Editing: the saved due date (ISO), sent back as it is while its day is unchanged. */
  savedDueAt?: string | null;
};

/** The day of an instant, as a date input shows it (the brand's time zone). */
export function dateInputValue(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A saved milestone as a draft of the form. */
export function milestoneDraft(m: {
  id: string;
  title: string;
  amount: number;
  dueAt: string | null;
  requirements: { hashtags: string[]; mentions: string[]; links: string[]; criteria: string[] };
}): MilestoneDraft {
  return {
    key: `saved-${m.id}`,
    title: m.title,
    amount: String(m.amount),
    dueDate: dateInputValue(m.dueAt),
    hashtags: m.requirements.hashtags,
    mentions: m.requirements.mentions,
    links: m.requirements.links,
    criteria: m.requirements.criteria.join("\n"),
    savedDueAt: m.dueAt,
  };
}

let nextKey = 0;
export const emptyMilestone = (): MilestoneDraft => ({
  key: `m${nextKey++}`,
  title: "",
  amount: "",
  dueDate: "",
  hashtags: [],
  mentions: [],
  links: [],
  criteria: "",
});

type Props = {
  index: number;
  draft: MilestoneDraft;
  errors: FieldErrors;
  onChange(draft: MilestoneDraft): void;
  onRemove?: () => void;
  /** Funded: the escrow holds this amount, so it is shown read-only with this reason. */
  amountLocked?: string;
};

export function MilestoneEditor({ index, draft, errors, onChange, onRemove, amountLocked }: Props) {
  const base = ["milestones", index] as const;
  const set = (patch: Partial<MilestoneDraft>) => onChange({ ...draft, ...patch });
  const field = (name: string) => {
    const messages = errors.at(...base, name);
    return {
      id: `m${index}-${name}`,
      messages,
      errId: errorId(...base, name),
      invalid: messages.length > 0 || undefined,
    };
  };
  const title = field("title");
  const amount = field("amount");
  const due = field("dueAt");

  // Requirement lists: an issue on an item (["…","hashtags","2"]) marks that chip.
  const listErrors = (kind: "hashtags" | "mentions" | "links", values: string[]) => {
    const issues = errors.under(...base, "requirements", kind);
    const items = new Map<number, string>();
    const lines: string[] = [];
    for (const { rest, message } of issues) {
      const at = rest[0] === undefined ? Number.NaN : Number(rest[0]);
      const value = Number.isInteger(at) ? values[at] : undefined;
      if (value !== undefined) {
        items.set(at, message);
        lines.push(`“${value}” ${message}`);
      } else lines.push(message);
    }
    return { items, lines, errId: errorId(...base, "requirements", kind) };
  };
  const hashtags = listErrors("hashtags", draft.hashtags);
  const mentions = listErrors("mentions", draft.mentions);
  const links = listErrors("links", draft.links);
  const criteriaLines = errors.under(...base, "requirements", "criteria").map((i) => i.message);
  const criteriaErrId = errorId(...base, "requirements", "criteria");

  return (
    // biome-ignore lint/a11y/useSemanticElements: a <fieldset> cannot lay its legend out beside the Remove button; a named group is the same to assistive technology
    <section
      className="card stack milestone-editor"
      role="group"
      aria-labelledby={`m${index}-heading`}
      data-testid={`milestone-editor-${index}`}
    >
      <div className="spread">
        <h2 id={`m${index}-heading`}>Milestone {index + 1}</h2>
        {onRemove && (
          <button type="button" className="btn small ghost" onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
      <div className="form-grid">
        <div className="field wide">
          <label>
            Title
            <input
              id={title.id}
              value={draft.title}
              onChange={(e) => set({ title: e.target.value })}
              placeholder="e.g. Launch Reel"
              aria-invalid={title.invalid}
              aria-describedby={title.errId}
            />
          </label>
          <FieldError id={title.errId} label="Title" messages={title.messages} />
        </div>
        <div className="field">
          <label>
            Amount (USDC)
            <input
              id={amount.id}
              value={draft.amount}
              onChange={(e) => set({ amount: e.target.value })}
              inputMode="decimal"
              placeholder="100"
              readOnly={amountLocked !== undefined}
              aria-invalid={amount.invalid}
              aria-describedby={
                amountLocked !== undefined ? `${amount.id}-locked ${amount.errId}` : amount.errId
              }
            />
          </label>
          {amountLocked !== undefined && (
            <span id={`${amount.id}-locked`} className="muted small hint">
              {amountLocked}
            </span>
          )}
          <FieldError id={amount.errId} label="Amount" messages={amount.messages} />
        </div>
        <div className="field">
          <label>
            <span>
              Due date <span className="muted small">(optional)</span>
            </span>
            <input
              id={due.id}
              type="date"
              value={draft.dueDate}
              onChange={(e) => set({ dueDate: e.target.value })}
              aria-invalid={due.invalid}
              aria-describedby={due.errId}
            />
          </label>
          <FieldError id={due.errId} label="Due date" messages={due.messages} />
        </div>
      </div>

      <div className="stack tight">
        <h3>Requirements</h3>
        <p className="muted small">
          At least one. Hashtags, mentions and links are checked exactly in the creator&apos;s post;
          criteria are judged by the AI.
        </p>
        <FieldError
          id={errorId(...base, "requirements")}
          label="Requirements"
          messages={errors.at(...base, "requirements")}
        />
      </div>
      <div className="form-grid">
        <div className="stack tight">
          <ChipInput
            id={`m${index}-hashtags`}
            label="Hashtags"
            values={draft.hashtags}
            onChange={(v) => set({ hashtags: v })}
            prefix="#"
            placeholder="#launch, #ad"
            itemErrors={hashtags.items}
            errorId={hashtags.errId}
            invalid={hashtags.lines.length > 0}
          />
          <FieldError id={hashtags.errId} label="Hashtag" messages={hashtags.lines} />
        </div>
        <div className="stack tight">
          <ChipInput
            id={`m${index}-mentions`}
            label="Mentions"
            values={draft.mentions}
            onChange={(v) => set({ mentions: v })}
            prefix="@"
            placeholder="@yourbrand"
            itemErrors={mentions.items}
            errorId={mentions.errId}
            invalid={mentions.lines.length > 0}
          />
          <FieldError id={mentions.errId} label="Mention" messages={mentions.lines} />
        </div>
        <div className="stack tight wide">
          <ChipInput
            id={`m${index}-links`}
            label="Links"
            values={draft.links}
            onChange={(v) => set({ links: v })}
            placeholder="https://yourbrand.example/launch"
            itemErrors={links.items}
            errorId={links.errId}
            invalid={links.lines.length > 0}
          />
          <FieldError id={links.errId} label="Link" messages={links.lines} />
        </div>
      </div>
      <div className="field">
        <label>
          <span>
            Criteria <span className="muted small">(one per line)</span>
          </span>
          <textarea
            id={`m${index}-criteria`}
            value={draft.criteria}
            onChange={(e) => set({ criteria: e.target.value })}
            placeholder={"Shows the product in the first 3 seconds\nEnds with a call to action"}
            aria-invalid={criteriaLines.length > 0 || undefined}
            aria-describedby={criteriaErrId}
          />
        </label>
        <FieldError id={criteriaErrId} label="Criteria" messages={criteriaLines} />
      </div>
    </section>
  );
}

/** The API body of one milestone draft. Blank or non-numeric amounts go as null so the
 * server's message ("must be a number of USDC") explains them. */
export function milestoneBody(m: MilestoneDraft) {
  const amount = m.amount.trim() === "" ? Number.NaN : Number(m.amount.trim());
  return {
    title: m.title,
    amount: Number.isFinite(amount) ? amount : null,
    requirements: {
      hashtags: m.hashtags,
      mentions: m.mentions,
      links: m.links,
      criteria: m.criteria
        .split("\n")
        .map((c) => c.trim())
        .filter(Boolean),
    },
    // A due date is the end of that day, in the brand's time zone; a saved one whose day
    // did not change goes back exactly as it was.
    ...(m.dueDate
      ? {
          dueAt:
            m.savedDueAt && dateInputValue(m.savedDueAt) === m.dueDate
              ? m.savedDueAt
              : new Date(`${m.dueDate}T23:59:59`).toISOString(),
        }
      : {}),
  };
}

/** The milestone's amount in USDC base units, or null when it is not a valid amount. */
export function amountUnits(amount: string): bigint | null {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!match) return null;
  return BigInt(match[1] ?? "0") * 1_000_000n + BigInt((match[2] ?? "").padEnd(6, "0"));
}
