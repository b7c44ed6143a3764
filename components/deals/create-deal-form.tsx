"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiFetch, errorMessage } from "@/lib/client/api";
import { FieldError } from "./field-error";
import { errorId, FieldErrors, type FieldIssue, fieldIssues } from "./field-errors";
import { type DealJson, formatUsdc, platformLabel, platforms } from "./format";
import {
  amountUnits,
  emptyMilestone,
  type MilestoneDraft,
  MilestoneEditor,
  milestoneBody,
} from "./milestone-editor";
import { SessionGate } from "./session-gate";

// The brand's create-deal form: the deal, its milestones and their requirements, with the
// budget computed live. POST /api/deals; its 400 details land under the inputs they name.

export function CreateDeal() {
  return (
    <SessionGate requires="organization" what="where brands create deals">
      {() => <CreateDealForm />}
    </SessionGate>
  );
}

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
};

/** Paths the form shows next to an input; anything else goes in the summary. */
function claimed(path: string[]): boolean {
  const [top, index, field, kind] = path;
  if (["title", "description", "platform", "minScore", "creatorEmail"].includes(top ?? ""))
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
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What is wrong with the form before it is sent, in the words a person uses (the same
 * rules as the API, plus: every milestone needs something to check). Paths as the API's.
 */
function draftIssues(form: {
  title: string;
  minScore: string;
  creatorEmail: string;
  milestones: MilestoneDraft[];
}): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (form.title.trim().length < 3)
    issues.push({ path: ["title"], message: "must be at least 3 characters" });
  const pct = form.minScore.trim() === "" ? Number.NaN : Number(form.minScore);
  if (!Number.isFinite(pct) || pct < 0 || pct > 100)
    issues.push({ path: ["minScore"], message: percentMessage });
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
  return issue;
}

function CreateDealForm() {
  const router = useRouter();
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [platform, setPlatform] = useState<string>("instagram");
  // Entered as a percentage, as the verdicts display it; sent as a fraction (0.5).
  const [minScore, setMinScore] = useState("50");
  const [creatorEmail, setCreatorEmail] = useState("");
  const [milestones, setMilestones] = useState<MilestoneDraft[]>(() => [emptyMilestone()]);
  const [errors, setErrors] = useState(new FieldErrors());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // After a rejected submit (not after each edit), bring the first problem into view.
  const focusFirstError = useRef(false);
  useEffect(() => {
    if (!focusFirstError.current || !errors.any) return;
    focusFirstError.current = false;
    document.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [errors]);

  const units = milestones.map((m) => amountUnits(m.amount));
  const budgetUnits = units.reduce<bigint>((sum, u) => sum + (u ?? 0n), 0n);
  const incomplete = units.some((u) => u === null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    setErrors(new FieldErrors());
    const local = draftIssues({ title, minScore, creatorEmail, milestones });
    if (local.length > 0) {
      focusFirstError.current = true;
      setErrors(new FieldErrors(local));
      setFailure("Some fields need attention — see the messages below them.");
      setBusy(false);
      return;
    }
    const score = Number(minScore) / 100;
    try {
      const { deal } = await apiFetch<{ deal: DealJson }>("/api/deals", {
        body: {
          title,
          description,
          platform,
          minScore: score,
          ...(creatorEmail.trim() ? { creatorEmail: creatorEmail.trim() } : {}),
          milestones: milestones.map(milestoneBody),
        },
      });
      router.push(`/deals/${deal.id}`);
    } catch (err) {
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
      setBusy(false);
    }
  }

  // Editing an input clears the messages about it: they described the old value.
  function edited(path: string | Array<string | number>, apply: () => void) {
    apply();
    setErrors((e) => e.without(...(Array.isArray(path) ? path : [path])));
    setFailure(null);
  }
  const update = (index: number, draft: MilestoneDraft) => {
    const before = milestones[index];
    setMilestones((list) => list.map((m, i) => (i === index ? draft : m)));
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
    creatorEmail: dealField("creatorEmail"),
  };
  const listMessages = errors.at("milestones");

  return (
    <form className="stack create-deal" onSubmit={submit} noValidate aria-busy={busy}>
      <div className="spread">
        <div>
          <h1>Create a deal</h1>
          <p className="muted small">
            Split the work into milestones. Each one is checked by the AI and paid on its own.
          </p>
        </div>
        <Link className="btn ghost" href="/brand">
          Cancel
        </Link>
      </div>

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
              The AI scores each deliverable from 0 % to 100 %. A milestone is paid only when its
              score reaches this minimum, and then pays its amount × the score.
            </span>
            <FieldError
              id={f.minScore.errId}
              label="Minimum score"
              messages={f.minScore.messages}
            />
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
      </section>

      {milestones.map((draft, index) => (
        <MilestoneEditor
          key={draft.key}
          index={index}
          draft={draft}
          errors={errors}
          onChange={(d) => update(index, d)}
          onRemove={milestones.length > 1 ? () => remove(index) : undefined}
        />
      ))}
      <FieldError id={errorId("milestones")} label="Milestones" messages={listMessages} />

      <div className="row">
        <button
          type="button"
          className="btn secondary"
          onClick={() => setMilestones((list) => [...list, emptyMilestone()])}
          disabled={milestones.length >= 20}
        >
          + Add a milestone
        </button>
      </div>

      {failure && (
        <div className="alert error" role="alert">
          {failure}
        </div>
      )}
      <section className="card sticky-summary spread" aria-live="polite">
        <div className="summary-figures">
          <span className="muted small">Budget</span>
          <div className="budget" data-testid="budget">
            {formatUsdc(Number(budgetUnits) / 1_000_000)}
          </div>
          <span className="muted small summary-count">
            {milestones.length} {milestones.length === 1 ? "milestone" : "milestones"}
            {incomplete ? " · some amounts are missing or not valid" : ""}
          </span>
        </div>
        <button className="btn" type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create deal"}
        </button>
      </section>
    </form>
  );
}
