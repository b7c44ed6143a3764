"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { AUTO_SETTLE_CONFIDENCE } from "@/lib/verify/confidence";
import { FieldError } from "./field-error";
import { errorId, FieldErrors, type FieldIssue, fieldIssues } from "./field-errors";
import { type DealJson, formatScore, formatUsdc, platformLabel, platforms } from "./format";
import {
  amountUnits,
  dateInputValue,
  emptyMilestone,
  type MilestoneDraft,
  MilestoneEditor,
  milestoneBody,
  milestoneDraft,
} from "./milestone-editor";
import { SessionGate } from "./session-gate";

// The brand's deal form: the deal, its milestones and their requirements, with the budget
// computed live. Creating: POST /api/deals. Editing a deal nobody has taken (`deal` given):
// the changes are listed for confirmation, then PATCH /api/deals/:id; on a funded deal the
// amounts and the number of milestones are read-only (the escrow holds them). The API's 400
// details land under the inputs they name.

export function CreateDeal() {
  return (
    <SessionGate requires="organization" what="where brands create deals">
      {() => <DealForm />}
    </SessionGate>
  );
}

/** The deal as the edit form starts from it (GET /api/deals/:id). */
export type EditableDeal = DealJson & { reviewWindowSeconds: number };

/** Funded: the escrow holds each amount (the notice above the form says what to do instead). */
export const lockedReason = "Locked: the escrow holds this amount.";

/** Where the API reports a problem with each field of a milestone draft. */
const draftPath: Record<keyof MilestoneDraft, string[]> = {
  key: ["key"],
  title: ["title"],
  amount: ["amount"],
  dueDate: ["dueAt"],
  hashtags: ["requirements", "hashtags"],
  mentions: ["requirements", "mentions"],
  links: ["requirements", "links"],
  criteria: ["requirements", "criteria"],
  savedDueAt: ["dueAt"],
};

/** Paths the form shows next to an input; anything else goes in the summary. */
function claimed(path: string[]): boolean {
  const [top, index, field, kind] = path;
  if (
    [
      "title",
      "description",
      "platform",
      "minScore",
      "autoSettleConfidence",
      "creatorEmail",
      "reviewWindowDays",
      "deadline",
      "disclosure",
    ].includes(top ?? "")
  )
    return true;
  if (top !== "milestones") return false;
  if (index === undefined) return true;
  if (["title", "amount", "dueAt"].includes(field ?? "")) return true;
  if (field === "requirements" && kind === undefined) return true;
  return (
    field === "requirements" && ["hashtags", "mentions", "links", "criteria"].includes(kind ?? "")
  );
}

const percentMessage = "Minimum score must be between 0 % and 100 %.";
const autoSettleMessage = "Auto-settle threshold must be between 50 % and 100 %.";
const reviewDaysMessage = "Review window must be a whole number of days, from 1 to 60.";
const disclosureReasonMessage =
  "Say why these posts need no disclosure, in 10 to 500 characters (the creator sees it with the terms).";
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What is wrong with the form before it is sent, in the words a person uses (the same
 * rules as the API, plus: every milestone needs something to check). Paths as the API's.
 */
function draftIssues(form: {
  title: string;
  minScore: string;
  autoSettle: string;
  reviewDays: string;
  creatorEmail: string;
  disclosureRequired: boolean;
  disclosureReason: string;
  milestones: MilestoneDraft[];
}): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const reason = form.disclosureReason.trim();
  if (!form.disclosureRequired && (reason.length < 10 || reason.length > 500))
    issues.push({ path: ["disclosure", "reason"], message: disclosureReasonMessage });
  const days = form.reviewDays.trim() === "" ? Number.NaN : Number(form.reviewDays);
  if (!Number.isInteger(days) || days < 1 || days > 60)
    issues.push({ path: ["reviewWindowDays"], message: reviewDaysMessage });
  if (form.title.trim().length < 3)
    issues.push({ path: ["title"], message: "must be at least 3 characters" });
  const pct = form.minScore.trim() === "" ? Number.NaN : Number(form.minScore);
  if (!Number.isFinite(pct) || pct < 0 || pct > 100)
    issues.push({ path: ["minScore"], message: percentMessage });
  const auto = form.autoSettle.trim() === "" ? Number.NaN : Number(form.autoSettle);
  if (!Number.isFinite(auto) || auto < 50 || auto > 100)
    issues.push({ path: ["autoSettleConfidence"], message: autoSettleMessage });
  const email = form.creatorEmail.trim();
  if (email && !emailPattern.test(email))
    issues.push({ path: ["creatorEmail"], message: "must be an e-mail address" });
  form.milestones.forEach((m, i) => {
    const at = (...rest: string[]) => ["milestones", String(i), ...rest];
    if (!m.title.trim()) issues.push({ path: at("title"), message: "is required" });
    const amount = m.amount.trim();
    const units = amountUnits(amount);
    if (units === null)
      issues.push({
        path: at("amount"),
        message: /^\d+\.\d{7,}$/.test(amount)
          ? "must have at most 6 decimals"
          : "must be a number of USDC, like 100 or 49.50",
      });
    else if (units === 0n) issues.push({ path: at("amount"), message: "must be more than 0" });
    const body = milestoneBody(m);
    const r = body.requirements;
    if (r.hashtags.length + r.mentions.length + r.links.length + r.criteria.length === 0)
      issues.push({
        path: at("requirements"),
        message:
          "Add at least one requirement: a hashtag, a mention, a link or a criterion for the AI to check.",
      });
  });
  return issues;
}

/** The API's message for a field, in the form's words where they differ. */
function plainIssue(issue: FieldIssue): FieldIssue {
  if (issue.path[0] === "minScore") return { ...issue, message: percentMessage };
  if (issue.path[0] === "autoSettleConfidence") return { ...issue, message: autoSettleMessage };
  if (issue.path[0] === "reviewWindowDays") return { ...issue, message: reviewDaysMessage };
  if (issue.path[0] === "disclosure") return { ...issue, message: disclosureReasonMessage };
  return issue;
}

type FormState = {
  title: string;
  description: string;
  platform: string;
  minScore: string;
  /** The auto-settle threshold, a percentage like the minimum score. */
  autoSettle: string;
  reviewDays: string;
  creatorEmail: string;
  /** The escrow deadline's day (a date input's value); empty: the API's default. */
  deadline: string;
  /** Editing: the saved deadline (ISO), sent back as it is while its day is unchanged. */
  savedDeadline?: string;
  /** The FTC disclosure rule: on unless the brand turns it off and says why. */
  disclosureRequired: boolean;
  disclosureReason: string;
  milestones: MilestoneDraft[];
};

function initialState(deal?: EditableDeal): FormState {
  if (!deal)
    return {
      title: "",
      description: "",
      platform: "instagram",
      minScore: "50",
      autoSettle: String(AUTO_SETTLE_CONFIDENCE * 100),
      reviewDays: "7",
      creatorEmail: "",
      deadline: "",
      disclosureRequired: true,
      disclosureReason: "",
      milestones: [emptyMilestone()],
    };
  return {
    title: deal.title,
    description: deal.description,
    platform: deal.platform,
    minScore: String(Math.round(deal.minScore * 1000) / 10),
    autoSettle: String(Math.round(deal.autoSettleConfidence * 1000) / 10),
    reviewDays: String(Math.round(deal.reviewWindowSeconds / 86_400)),
    creatorEmail: deal.inviteEmail ?? "",
    deadline: dateInputValue(deal.escrow.deadline),
    savedDeadline: deal.escrow.deadline,
    disclosureRequired: deal.disclosure.required,
    disclosureReason: deal.disclosure.reason ?? "",
    milestones: deal.milestones.map(milestoneDraft),
  };
}

/** The API body of the form (create and edit send the same fields). */
function requestBody(form: FormState, editing: boolean) {
  const email = form.creatorEmail.trim();
  return {
    title: form.title,
    description: form.description,
    platform: form.platform,
    minScore: Number(form.minScore) / 100,
    autoSettleConfidence: Number(form.autoSettle) / 100,
    reviewWindowDays: Number(form.reviewDays),
    // Editing: an emptied invite opens the deal to every creator.
    ...(email ? { creatorEmail: email } : editing ? { creatorEmail: null } : {}),
    // The end of the chosen day in the brand's time zone; a saved deadline whose day did not
    // change is not sent (once funded the escrow holds it); empty on create: the default.
    ...(form.deadline &&
    !(form.savedDeadline && dateInputValue(form.savedDeadline) === form.deadline)
      ? { deadline: new Date(`${form.deadline}T23:59:59`).toISOString() }
      : {}),
    disclosure: form.disclosureRequired
      ? { required: true }
      : { required: false, reason: form.disclosureReason.trim() },
    milestones: form.milestones.map(milestoneBody),
  };
}

const sameList = (a: string[], b: string[]) => a.join("\n") === b.join("\n");

/** What an edit changes, one line each, in the words the form uses. */
export function describeChanges(before: FormState, after: FormState): string[] {
  const lines: string[] = [];
  const quote = (s: string) => `“${s.trim()}”`;
  if (before.title.trim() !== after.title.trim())
    lines.push(`Title: ${quote(before.title)} → ${quote(after.title)}`);
  if (before.description.trim() !== after.description.trim()) lines.push("Description rewritten");
  if (before.platform !== after.platform)
    lines.push(`Platform: ${platformLabel(before.platform)} → ${platformLabel(after.platform)}`);
  if (Number(before.minScore) !== Number(after.minScore))
    lines.push(
      `Minimum score: ${formatScore(Number(before.minScore) / 100)} → ${formatScore(Number(after.minScore) / 100)}`,
    );
  if (Number(before.autoSettle) !== Number(after.autoSettle))
    lines.push(
      `Auto-settle threshold: ${formatScore(Number(before.autoSettle) / 100)} → ${formatScore(Number(after.autoSettle) / 100)}`,
    );
  if (before.deadline !== after.deadline)
    lines.push(`Deadline: ${before.deadline || "default"} → ${after.deadline || "default"}`);
  if (Number(before.reviewDays) !== Number(after.reviewDays))
    lines.push(`Review window: ${before.reviewDays} → ${after.reviewDays} days`);
  const invite = (s: string) => s.trim().toLowerCase() || "every creator";
  if (invite(before.creatorEmail) !== invite(after.creatorEmail))
    lines.push(`Offered to: ${invite(before.creatorEmail)} → ${invite(after.creatorEmail)}`);
  if (before.disclosureRequired !== after.disclosureRequired)
    lines.push(
      after.disclosureRequired
        ? "Disclosure: not required → required (#ad within the first 125 characters)"
        : `Disclosure: required → not required, because ${quote(after.disclosureReason)}`,
    );
  else if (
    !after.disclosureRequired &&
    before.disclosureReason.trim() !== after.disclosureReason.trim()
  )
    lines.push(
      `Disclosure reason: ${quote(before.disclosureReason)} → ${quote(after.disclosureReason)}`,
    );

  const n = Math.max(before.milestones.length, after.milestones.length);
  for (let i = 0; i < n; i++) {
    const a = before.milestones[i];
    const b = after.milestones[i];
    const name = `Milestone ${i + 1}`;
    if (!a && b) {
      lines.push(`${name} added: ${quote(b.title)}, ${formatUsdc(b.amount.trim() || "0")}`);
      continue;
    }
    if (a && !b) {
      lines.push(`${name} removed: ${quote(a.title)}`);
      continue;
    }
    if (!a || !b) continue;
    if (a.title.trim() !== b.title.trim())
      lines.push(`${name} title: ${quote(a.title)} → ${quote(b.title)}`);
    if (amountUnits(a.amount) !== amountUnits(b.amount))
      lines.push(`${name} amount: ${formatUsdc(a.amount)} → ${formatUsdc(b.amount)}`);
    if (a.dueDate !== b.dueDate)
      lines.push(`${name} due date: ${a.dueDate || "none"} → ${b.dueDate || "none"}`);
    const ra = milestoneBody(a).requirements;
    const rb = milestoneBody(b).requirements;
    if (
      !sameList(ra.hashtags, rb.hashtags) ||
      !sameList(ra.mentions, rb.mentions) ||
      !sameList(ra.links, rb.links) ||
      !sameList(ra.criteria, rb.criteria)
    )
      lines.push(`${name} requirements changed`);
  }
  const total = (f: FormState) =>
    f.milestones.reduce<bigint>((sum, m) => sum + (amountUnits(m.amount) ?? 0n), 0n);
  if (total(before) !== total(after))
    lines.push(
      `Budget: ${formatUsdc(Number(total(before)) / 1_000_000)} → ${formatUsdc(Number(total(after)) / 1_000_000)}`,
    );
  return lines;
}

/** The deal form: creates a deal, or with `deal` edits that deal (nobody has taken it). */
export function DealForm({ deal }: { deal?: EditableDeal } = {}) {
  const router = useRouter();
  const editing = deal !== undefined;
  // Funded: the escrow holds the amounts and their number; only the rest may change.
  const locked = deal?.status === "open";
  const [saved] = useState(() => initialState(deal));
  const [title, setTitle] = useState(saved.title);
  const [description, setDescription] = useState(saved.description);
  const [platform, setPlatform] = useState<string>(saved.platform);
  // Entered as a percentage, as the verdicts display it; sent as a fraction (0.5).
  const [minScore, setMinScore] = useState(saved.minScore);
  const [autoSettle, setAutoSettle] = useState(saved.autoSettle);
  const [reviewDays, setReviewDays] = useState(saved.reviewDays);
  const [creatorEmail, setCreatorEmail] = useState(saved.creatorEmail);
  const [deadline, setDeadline] = useState(saved.deadline);
  const [disclosureRequired, setDisclosureRequired] = useState(saved.disclosureRequired);
  const [disclosureReason, setDisclosureReason] = useState(saved.disclosureReason);
  const [milestones, setMilestones] = useState<MilestoneDraft[]>(saved.milestones);
  const [errors, setErrors] = useState(new FieldErrors());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Editing: the changes awaiting the brand's confirmation.
  const [pending, setPending] = useState<string[] | null>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);

  // After a rejected submit (not after each edit), bring the first problem into view.
  const focusFirstError = useRef(false);
  useEffect(() => {
    if (!focusFirstError.current || !errors.any) return;
    focusFirstError.current = false;
    document.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [errors]);
  useEffect(() => {
    if (pending) confirmHeading.current?.focus();
  }, [pending]);

  const units = milestones.map((m) => amountUnits(m.amount));
  const budgetUnits = units.reduce<bigint>((sum, u) => sum + (u ?? 0n), 0n);
  const incomplete = units.some((u) => u === null);
  const form: FormState = {
    title,
    description,
    platform,
    minScore,
    autoSettle,
    reviewDays,
    creatorEmail,
    deadline,
    savedDeadline: saved.savedDeadline,
    disclosureRequired,
    disclosureReason,
    milestones,
  };

  function rejected(err: unknown) {
    const issues = fieldIssues(err);
    if (issues) {
      const next = new FieldErrors(issues.map(plainIssue));
      focusFirstError.current = true;
      setErrors(next);
      const stray = next.unclaimed(claimed);
      setFailure(
        stray.length
          ? `Please fix: ${stray.map((i) => i.message).join("; ")}`
          : "Some fields need attention — see the messages below them.",
      );
    } else setFailure(errorMessage(err));
  }

  async function send() {
    setBusy(true);
    setFailure(null);
    try {
      if (deal) {
        await apiFetch<{ deal: DealJson }>(`/api/deals/${deal.id}`, {
          method: "PATCH",
          body: requestBody(form, true),
        });
        router.push(`/deals/${deal.id}`);
        router.refresh();
      } else {
        const { deal: created } = await apiFetch<{ deal: DealJson }>("/api/deals", {
          body: requestBody(form, false),
        });
        router.push(`/deals/${created.id}`);
      }
    } catch (err) {
      setPending(null);
      rejected(err);
      setBusy(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    setErrors(new FieldErrors());
    const local = draftIssues(form);
    if (local.length > 0) {
      focusFirstError.current = true;
      setErrors(new FieldErrors(local));
      setFailure("Some fields need attention — see the messages below them.");
      return;
    }
    if (!editing) return send();
    const changes = describeChanges(saved, form);
    if (changes.length === 0) {
      setFailure("Nothing has changed yet: edit a field, then save.");
      return;
    }
    setPending(changes);
  }

  // Editing an input clears the messages about it: they described the old value.
  function edited(path: string | Array<string | number>, apply: () => void) {
    apply();
    setErrors((e) => e.without(...(Array.isArray(path) ? path : [path])));
    setFailure(null);
    setPending(null);
  }
  const update = (index: number, draft: MilestoneDraft) => {
    const before = milestones[index];
    setMilestones((list) => list.map((m, i) => (i === index ? draft : m)));
    setPending(null);
    if (!before) return;
    // Only the inputs that changed lose their messages.
    const changed = (Object.keys(draft) as Array<keyof MilestoneDraft>).filter(
      (k) => draft[k] !== before[k],
    );
    setErrors((e) =>
      changed.reduce((acc, k) => acc.without("milestones", index, ...draftPath[k]), e),
    );
    setFailure(null);
  };
  const remove = (index: number) => {
    setMilestones((list) => list.filter((_, i) => i !== index));
    setPending(null);
    // Messages name milestones by position, which just shifted.
    setErrors((e) => e.without("milestones"));
  };

  const dealField = (name: string) => {
    const messages = errors.at(name);
    return { messages, errId: errorId(name), invalid: messages.length > 0 || undefined };
  };
  const f = {
    title: dealField("title"),
    description: dealField("description"),
    platform: dealField("platform"),
    minScore: dealField("minScore"),
    autoSettle: dealField("autoSettleConfidence"),
    reviewDays: dealField("reviewWindowDays"),
    creatorEmail: dealField("creatorEmail"),
    deadline: dealField("deadline"),
    disclosure: (() => {
      // The API names the field inside (["disclosure", "reason"]); the form has one place.
      const messages = errors.under("disclosure").map((i) => i.message);
      return { messages, errId: errorId("disclosure"), invalid: messages.length > 0 || undefined };
    })(),
  };
  const listMessages = errors.at("milestones");
  const back = deal ? `/deals/${deal.id}` : "/brand";

  return (
    <form
      className="stack create-deal"
      onSubmit={submit}
      noValidate
      aria-busy={busy}
      data-testid={editing ? "edit-deal-form" : "create-deal-form"}
    >
      <div className="spread">
        <div>
          <h1>{editing ? "Edit the deal" : "Create a deal"}</h1>
          <p className="muted small">
            {editing
              ? "Nobody has taken this deal yet, so you can still change it. You will see the changes before they are saved."
              : "Split the work into milestones. Each one is checked by the AI and paid on its own."}
          </p>
        </div>
        <Link className="btn ghost" href={back}>
          Cancel
        </Link>
      </div>

      {locked && (
        <div className="alert info" role="note" data-testid="locked-terms">
          <strong>The money is locked in the escrow.</strong> Its amounts, the number of milestones
          and the deadline can no longer change — to change them, cancel this deal and create a new
          one. Everything else (names, requirements, due dates, the minimum score, the auto-settle
          threshold…) you can still edit.
        </div>
      )}

      <section className="card stack">
        <h2>The deal</h2>
        <div className="field">
          <label>
            Title
            <input
              value={title}
              onChange={(e) => edited("title", () => setTitle(e.target.value))}
              placeholder="e.g. Instagram Reel — Product Launch"
              aria-invalid={f.title.invalid}
              aria-describedby={f.title.errId}
            />
          </label>
          <FieldError id={f.title.errId} label="Title" messages={f.title.messages} />
        </div>
        <div className="field">
          <label>
            <span>
              Description <span className="muted small">(optional)</span>
            </span>
            <textarea
              value={description}
              onChange={(e) => edited("description", () => setDescription(e.target.value))}
              placeholder="What the campaign is about and what you expect from the creator."
              aria-invalid={f.description.invalid}
              aria-describedby={f.description.errId}
            />
          </label>
          <FieldError
            id={f.description.errId}
            label="Description"
            messages={f.description.messages}
          />
        </div>
        <div className="form-grid">
          <div className="field">
            <label>
              Platform
              <select
                value={platform}
                onChange={(e) => edited("platform", () => setPlatform(e.target.value))}
                aria-invalid={f.platform.invalid}
                aria-describedby={f.platform.errId}
              >
                {platforms.map((p) => (
                  <option key={p} value={p}>
                    {platformLabel(p)}
                  </option>
                ))}
              </select>
            </label>
            <FieldError id={f.platform.errId} label="Platform" messages={f.platform.messages} />
          </div>
          <div className="field">
            <label>
              Minimum score (%)
              <input
                type="number"
                inputMode="numeric"
                min={0}
                max={100}
                step={5}
                value={minScore}
                onChange={(e) => edited("minScore", () => setMinScore(e.target.value))}
                aria-invalid={f.minScore.invalid}
                aria-describedby={`min-score-hint ${f.minScore.errId}`}
              />
            </label>
            <span id="min-score-hint" className="muted small hint">
              The verifier scores each post from 0 % to 100 %. A milestone is paid only when every
              required hashtag, mention and link is in the post and its score is at least this
              minimum; it then pays its amount × the score.
            </span>
            <FieldError
              id={f.minScore.errId}
              label="Minimum score"
              messages={f.minScore.messages}
            />
          </div>
          <div className="field">
            <label>
              Auto-settle threshold (%)
              <input
                type="number"
                inputMode="numeric"
                min={50}
                max={100}
                step={5}
                value={autoSettle}
                onChange={(e) =>
                  edited("autoSettleConfidence", () => setAutoSettle(e.target.value))
                }
                aria-invalid={f.autoSettle.invalid}
                aria-describedby={`auto-settle-hint ${f.autoSettle.errId}`}
                data-testid="auto-settle-threshold"
              />
            </label>
            <span id="auto-settle-hint" className="muted small hint">
              How sure the verifier must be of its verdict to pay (or reject) a milestone on its
              own. Below this, nothing is paid automatically: you decide instead. 90 % is what the
              verifier's tests support; 100 % leaves to you everything that rules alone do not
              decide.
            </span>
            <FieldError
              id={f.autoSettle.errId}
              label="Auto-settle threshold"
              messages={f.autoSettle.messages}
            />
          </div>
          <div className="field">
            <label>
              Review window (days)
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={60}
                step={1}
                value={reviewDays}
                onChange={(e) => edited("reviewWindowDays", () => setReviewDays(e.target.value))}
                aria-invalid={f.reviewDays.invalid}
                aria-describedby={`review-days-hint ${f.reviewDays.errId}`}
              />
            </label>
            <span id="review-days-hint" className="muted small hint">
              After each submission you have this long to approve or reject it; after that the
              creator may settle it without you.
            </span>
            <FieldError
              id={f.reviewDays.errId}
              label="Review window"
              messages={f.reviewDays.messages}
            />
          </div>
          <div className="field">
            <label>
              <span>Deadline {!editing && <span className="muted small">(optional)</span>}</span>
              <input
                type="date"
                value={deadline}
                min={dateInputValue(new Date(Date.now() + 86_400_000).toISOString())}
                onChange={(e) => edited("deadline", () => setDeadline(e.target.value))}
                readOnly={locked}
                aria-invalid={f.deadline.invalid}
                aria-describedby={`deadline-hint ${f.deadline.errId}`}
                data-testid="deal-deadline"
              />
            </label>
            <span id="deadline-hint" className="muted small hint">
              {locked
                ? "Locked: the escrow holds this deadline."
                : "The work is due by the end of this day; no milestone may be due later. Money still unreleased comes back to you 7 days after it. Empty: 30 days from today (or a week after the last due date)."}
            </span>
            <FieldError id={f.deadline.errId} label="Deadline" messages={f.deadline.messages} />
          </div>
          <div className="field">
            <label>
              <span>
                Invite a creator <span className="muted small">(optional)</span>
              </span>
              <input
                type="email"
                value={creatorEmail}
                onChange={(e) => edited("creatorEmail", () => setCreatorEmail(e.target.value))}
                placeholder="creator@example.com"
                autoComplete="off"
                aria-invalid={f.creatorEmail.invalid}
                aria-describedby={`invite-hint ${f.creatorEmail.errId}`}
              />
            </label>
            <span id="invite-hint" className="muted small hint">
              Only this creator can take the deal. Leave empty to offer it to every creator.
            </span>
            <FieldError
              id={f.creatorEmail.errId}
              label="Creator e-mail"
              messages={f.creatorEmail.messages}
            />
          </div>
        </div>
        <fieldset className="choice stack tight" data-testid="deal-disclosure-field">
          <legend>Disclosure</legend>
          <label className="radio">
            <input
              type="checkbox"
              checked={disclosureRequired}
              onChange={(e) => edited("disclosure", () => setDisclosureRequired(e.target.checked))}
              aria-describedby="disclosure-hint"
              data-testid="disclosure-required"
            />
            Every post must disclose the paid partnership
          </label>
          <span id="disclosure-hint" className="muted small hint">
            The FTC asks every paid post to say so where people see it. The verifier checks for #ad,
            #sponsored or #paidpartnership within the first 125 characters of the caption (what
            shows before “more”), or the platform’s paid-partnership label, and lists it as missing
            otherwise. Turn it off only for posts that need none, and say why: the creator sees your
            reason with the deal’s terms.
          </span>
          {!disclosureRequired && (
            <div className="field">
              <label>
                Why do these posts need no disclosure?
                <textarea
                  value={disclosureReason}
                  onChange={(e) => edited("disclosure", () => setDisclosureReason(e.target.value))}
                  placeholder="e.g. The posts go on our own brand account."
                  maxLength={500}
                  aria-invalid={f.disclosure.invalid}
                  aria-describedby={f.disclosure.errId}
                  data-testid="disclosure-reason"
                />
              </label>
            </div>
          )}
          <FieldError id={f.disclosure.errId} label="Disclosure" messages={f.disclosure.messages} />
        </fieldset>
      </section>

      {milestones.map((draft, index) => (
        <MilestoneEditor
          key={draft.key}
          index={index}
          draft={draft}
          errors={errors}
          onChange={(d) => update(index, d)}
          onRemove={!locked && milestones.length > 1 ? () => remove(index) : undefined}
          amountLocked={locked ? lockedReason : undefined}
        />
      ))}
      <FieldError id={errorId("milestones")} label="Milestones" messages={listMessages} />

      {!locked && (
        <div className="row">
          <button
            type="button"
            className="btn secondary"
            onClick={() => {
              setMilestones((list) => [...list, emptyMilestone()]);
              setPending(null);
            }}
            disabled={milestones.length >= 20}
          >
            + Add a milestone
          </button>
        </div>
      )}

      {failure && (
        <div className="alert error" role="alert">
          {failure}
        </div>
      )}
      <section className="card sticky-summary spread" aria-live="polite">
        <div className="summary-figures">
          <span className="muted small">Budget{locked ? " (locked)" : ""}</span>
          <div className="budget" data-testid="budget">
            {formatUsdc(Number(budgetUnits) / 1_000_000)}
          </div>
          <span className="muted small summary-count">
            {milestones.length} {milestones.length === 1 ? "milestone" : "milestones"}
            {incomplete ? " · some amounts are missing or not valid" : ""}
          </span>
        </div>
        <button className="btn" type="submit" disabled={busy || pending !== null}>
          {editing ? "Review changes" : busy ? "Creating…" : "Create deal"}
        </button>
      </section>
      {/* After the sticky bar, so the bar never covers it. */}
      {pending && (
        <section
          className="card stack edit-confirm"
          aria-labelledby="edit-confirm-title"
          data-testid="edit-confirm"
        >
          <h2 id="edit-confirm-title" ref={confirmHeading} tabIndex={-1}>
            Save these changes?
          </h2>
          <ul className="stack tight">
            {pending.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <div className="row">
            <button type="button" className="btn" onClick={() => void send()} disabled={busy}>
              {busy ? "Saving…" : "Save changes"}
            </button>
            <button
              type="button"
              className="btn secondary"
              onClick={() => setPending(null)}
              disabled={busy}
            >
              Keep editing
            </button>
          </div>
        </section>
      )}
    </form>
  );
}
