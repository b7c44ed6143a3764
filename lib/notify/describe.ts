import type { DealEventType } from "@/db/schema";

// Human-readable text for an activity-log event: the one place the inbox, e-mails (subject
// and body) and anything else that tells a person what happened get their words from.
// Pure: everything it needs is in the context (loaded with the event, see
// db/queries/notifications.ts). Names are display names, never e-mail addresses.

export type EventActor = "brand" | "creator" | "service";

export type EventContext = {
  type: DealEventType;
  data: Record<string, unknown>;
  dealTitle: string;
  milestoneTitle: string | null;
  actor: EventActor;
  /** Display names; null when the user has none (then "The brand" / "The creator"). */
  brandName: string | null;
  creatorName: string | null;
};

export type EventText = {
  /** One line, e.g. "Acme approved milestone 'Launch post' at 80 %". */
  title: string;
  /** A second line with details, or null. */
  detail: string | null;
};

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** 0.8 → "80 %" (the score fields are fractions of 1). */
export function percent(score: unknown): string | null {
  const n = num(score);
  return n === null ? null : `${Math.round(n * 1000) / 10} %`;
}

/** "12.5" → "12.5 USDC" (amounts in event data are decimal strings). */
const usdc = (v: unknown): string | null => {
  const s = str(v) ?? (num(v) !== null ? String(v) : null);
  return s === null ? null : `${trimDecimal(s)} USDC`;
};

/** "40.000000" → "40.00", "12.345600" → "12.3456": at least two decimals, no trailing zeros. */
function trimDecimal(s: string): string {
  const m = /^(-?\d+)\.(\d+)$/.exec(s);
  if (!m) return s;
  const frac = (m[2] ?? "").replace(/0+$/, "").padEnd(2, "0");
  return `${m[1]}.${frac}`;
}

export function describeEvent(c: EventContext): EventText {
  const brand = c.brandName ?? "The brand";
  const creator = c.creatorName ?? "The creator";
  const who = c.actor === "brand" ? brand : c.actor === "creator" ? creator : "Milestone";
  const deal = `'${c.dealTitle}'`;
  const m = c.milestoneTitle ? `milestone '${c.milestoneTitle}'` : `a milestone of ${deal}`;
  const M = c.milestoneTitle ? `Milestone '${c.milestoneTitle}'` : `A milestone of ${deal}`;
  const d = c.data;
  const score = percent(d.score);
  const reason = str(d.reason);
  switch (c.type) {
    case "created":
      return { title: `${brand} created the deal ${deal}`, detail: null };
    case "edited":
      return { title: `${brand} edited the deal ${deal}`, detail: editedText(d) };
    case "funded":
      return {
        title: `${deal} is funded`,
        detail: usdc(d.amount) ? `${usdc(d.amount)} locked in the escrow.` : null,
      };
    case "taken":
      return { title: `${creator} took the deal ${deal}`, detail: null };
    case "submitted": {
      const rev = num(d.revision);
      return {
        title: `${creator} submitted ${m}${rev && rev > 1 ? ` (revision ${rev})` : ""}`,
        detail: str(d.url),
      };
    }
    case "verified": {
      // Named as on the verdict card: the rubric is a rule check, not an AI.
      const check = d.source === "rubric" ? "The rule check" : "The AI check";
      return {
        title:
          d.approved === true
            ? `${check} approved ${m}${score ? ` at ${score}` : ""}`
            : `${check} did not approve ${m}${score ? ` (score ${score})` : ""}`,
        detail: missingText(d.missing),
      };
    }
    case "rejected":
      return {
        title: `${M} was rejected${score ? ` (score ${score})` : ""}`,
        detail: missingText(d.missing),
      };
    case "approved":
      return {
        title: `${who === "Milestone" ? brand : who} approved ${m}${score ? ` at ${score}` : ""}`,
        detail: usdc(d.payout)
          ? `${usdc(d.payout)} to the creator${usdc(d.refund) && d.refund !== "0" ? `, ${usdc(d.refund)} back to the brand` : ""}.`
          : null,
      };
    case "paid":
      return {
        title: `${M} was paid${usdc(d.amount) ? `: ${usdc(d.amount)} to the creator` : ""}`,
        detail: str(d.txHash) ? `Transaction ${str(d.txHash)}` : null,
      };
    case "refunded":
      return {
        title: `${M} was refunded${usdc(d.amount) ? `: ${usdc(d.amount)} back to the brand` : ""}`,
        detail: null,
      };
    case "cancelled":
      return { title: `The deal ${deal} was cancelled`, detail: null };
    case "expired":
      return {
        title: `The deal ${deal} expired`,
        detail: "Unreleased milestones went back to the brand.",
      };
    case "completed":
      return { title: `The deal ${deal} is complete`, detail: "Every milestone has been settled." };
    case "appealed":
      return { title: `${creator} appealed the rejection of ${m}`, detail: reason };
    case "decided": {
      const upheld = d.outcome === "upheld" || d.decision === "uphold" || d.approved === false;
      return {
        title: upheld
          ? `${brand} upheld the rejection of ${m}`
          : `${brand} approved ${m}${score ? ` at ${score}` : ""}`,
        detail: reason,
      };
    }
    case "overdue":
      return { title: `${M} is past its due date`, detail: null };
    case "review_window_elapsed":
      return {
        title: `The review window for ${m} has passed`,
        detail: "The creator may now settle it without waiting for the brand.",
      };
    case "milestone.changes_requested": {
      const rev = num(d.revision);
      return {
        title: `${brand} asked for changes to ${m}${rev && rev > 1 ? ` (revision ${rev})` : ""}`,
        detail: str(d.message),
      };
    }
    case "message.created":
      return {
        title: `${who === "Milestone" ? "Someone" : who} sent a message on ${deal}`,
        detail: excerpt(d.body),
      };
    case "deposit.received":
      return {
        title: `${deal}: ${usdc(d.received) ?? "a payment"} received at its deposit address`,
        detail:
          usdc(d.missing) && d.missing !== "0"
            ? `${usdc(d.missing)} still to send (of ${usdc(d.amount) ?? "the total"}).`
            : "The full amount has arrived: the deal opens once it is moved into the escrow.",
      };
    case "draft.submitted": {
      const rev = num(d.revision);
      const missing = Array.isArray(d.missing) ? d.missing.map(String) : [];
      return {
        title: `${creator} sent a draft of ${m}${rev && rev > 1 ? ` (revision ${rev})` : ""}`,
        detail: missing.length
          ? `Its caption lacks ${missing.join(", ")}. Review it on the deal page before it is posted.`
          : "Review it on the deal page before it is posted.",
      };
    }
    case "draft.approved": {
      const rev = num(d.revision);
      return {
        title: `${brand} approved the draft of ${m}${rev ? ` (revision ${rev})` : ""}`,
        detail: "The post may go live now; its caption must match the approved draft.",
      };
    }
    case "draft.changes_requested": {
      const rev = num(d.revision);
      return {
        title: `${brand} asked for changes to the draft of ${m}${rev ? ` (revision ${rev})` : ""}`,
        detail: str(d.message),
      };
    }
    case "bonus.funded":
      return {
        title: `${brand} funded a bonus${usdc(d.amount) ? ` of ${usdc(d.amount)}` : ""} on ${deal}`,
        detail: str(d.message) ? `“${excerpt(d.message)}”` : "It is on its way to the creator.",
      };
    case "bonus.paid":
      return {
        title: `${creator} received a bonus${usdc(d.amount) ? ` of ${usdc(d.amount)}` : ""} on ${deal}`,
        detail: str(d.message)
          ? `“${excerpt(d.message)}”${str(d.txHash) ? ` Transaction ${str(d.txHash)}` : ""}`
          : str(d.txHash)
            ? `Transaction ${str(d.txHash)}`
            : null,
      };
    case "funding.returned":
      return {
        title: `${deal}: ${usdc(d.amount) ?? "a deposit"} sent back to the refund address`,
        detail: returnedText(d.reason),
      };
    default:
      return { title: `${deal}: ${String(c.type).replaceAll("_", " ")}`, detail: null };
  }
}

const fieldWords: Record<string, string> = {
  title: "title",
  description: "description",
  platform: "platform",
  minScore: "minimum score",
  autoSettleConfidence: "auto-settle threshold",
  creatorEmail: "invited creator",
  deadline: "deadline",
  reviewWindowDays: "review window",
  disclosure: "disclosure rule",
  milestones: "milestones",
};

/** "Changed: title, milestones. Budget 100.00 → 120.00 USDC." */
function editedText(d: Record<string, unknown>): string | null {
  const fields = Array.isArray(d.fields)
    ? d.fields.map((f) => fieldWords[String(f)] ?? String(f))
    : [];
  const budget = d.budget as { from?: unknown; to?: unknown } | undefined;
  const from = budget ? usdc(budget.from) : null;
  const to = budget ? usdc(budget.to) : null;
  const parts = [
    fields.length ? `Changed: ${fields.join(", ")}.` : null,
    from && to ? `Budget ${from} → ${to}.` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : null;
}

/** Why a deposit went back (lib/escrow/deposit.ts's reasons). */
function returnedText(reason: unknown): string | null {
  switch (reason) {
    case "already_funded":
      return "The deal was already funded when it arrived.";
    case "funded_twice":
      return "The deal had been funded another way.";
    case "deal_cancelled":
      return "The deal was cancelled.";
    case "deal_expired":
      return "The deal had expired.";
    case "terms_changed":
      return "The deal's terms changed; pay to its new deposit address.";
    case "address_replaced":
      return "It was sent to a deposit address this deal no longer uses; pay to its current one.";
    default:
      return null;
  }
}

/** A message body for a notification line: the start of it, whole words, at most 280 characters. */
function excerpt(body: unknown): string | null {
  const text = str(body)?.trim();
  if (!text) return null;
  if (text.length <= 280) return text;
  const cut = text.slice(0, 279);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 200)).trimEnd()}…`;
}

function missingText(missing: unknown): string | null {
  if (!Array.isArray(missing) || missing.length === 0) return null;
  return `Missing: ${missing.map(String).join(", ")}`;
}

/** The e-mail for an event: subject = the title; body = title, detail and a link. */
export function emailFor(c: EventContext, link: string): { subject: string; text: string } {
  const { title, detail } = describeEvent(c);
  const lines = [title, ...(detail ? ["", detail] : []), "", `See the deal: ${link}`];
  lines.push("", "You receive this because you are a party to this deal on Milestone.");
  return { subject: title, text: lines.join("\n") };
}
