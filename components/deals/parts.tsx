import type { ReactNode } from "react";
import {
  type BadgeTone,
  badgeClass,
  type DeductionJson,
  formatDeduction,
  type MilestoneJson,
} from "./format";

// Small presentational pieces shared by the dashboards and the deal page.

export function Badge({
  tone,
  children,
  testId,
  plain,
}: {
  tone: BadgeTone;
  children: ReactNode;
  testId?: string;
  /** Text as written (no capitalisation of every word): for sentences like "Waiting for funding". */
  plain?: boolean;
}) {
  return (
    <span className={plain ? `${badgeClass(tone)} plain` : badgeClass(tone)} data-testid={testId}>
      {children}
    </span>
  );
}

/** Label/value pairs in a responsive grid: <Facts><Fact label="Budget">…</Fact></Facts>. */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="facts">{children}</dl>;
}

/** `wide` for values that need room (e-mail addresses): two columns. */
export function Fact({
  label,
  wide,
  children,
}: {
  label: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "fact-wide" : undefined}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function ProgressBar({
  done,
  total,
  label,
}: {
  done: number;
  total: number;
  label: string;
}) {
  const pct = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
    >
      <span style={{ width: `${pct}%` }} />
    </div>
  );
}

export function Chips({ items, tone }: { items: string[]; tone?: "missing" }) {
  if (items.length === 0) return null;
  return (
    <ul className="chips">
      {items.map((item) => (
        <li key={item} className={tone ? `chip ${tone}` : "chip"}>
          {item}
        </li>
      ))}
    </ul>
  );
}

/** A milestone's requirements: hashtags, mentions and links as chips, criteria as a list. */
export function RequirementsView({
  requirements,
  missing = [],
}: {
  requirements: MilestoneJson["requirements"];
  missing?: string[];
}) {
  const { hashtags, mentions, links, criteria } = requirements;
  const empty = hashtags.length + mentions.length + links.length + criteria.length === 0;
  if (empty) return <p className="muted small">No specific requirements.</p>;
  // The verifier names a missing item as e.g. "hashtag #ad": match the item at the end.
  const isMissing = (item: string) => {
    const needle = item.toLowerCase();
    return missing.some((m) => {
      const said = m.toLowerCase();
      return said === needle || said.endsWith(` ${needle}`);
    });
  };
  const tagged = (items: string[]) => (
    <ul className="chips">
      {items.map((item) => (
        <li key={item} className={isMissing(item) ? "chip missing" : "chip"}>
          {item}
        </li>
      ))}
    </ul>
  );
  return (
    <dl className="requirements">
      {hashtags.length > 0 && (
        <div>
          <dt>Hashtags</dt>
          <dd>{tagged(hashtags)}</dd>
        </div>
      )}
      {mentions.length > 0 && (
        <div>
          <dt>Mentions</dt>
          <dd>{tagged(mentions)}</dd>
        </div>
      )}
      {links.length > 0 && (
        <div>
          <dt>Links</dt>
          <dd>
            <ul className="chips">
              {links.map((link) => (
                <li key={link} className={isMissing(link) ? "chip missing break" : "chip break"}>
                  {link}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      )}
      {criteria.length > 0 && (
        <div>
          <dt>Criteria</dt>
          <dd>
            <ul className="criteria">
              {criteria.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </dd>
        </div>
      )}
    </dl>
  );
}

/** What a verdict (or a pre-check) took off the score, one line each: "−10 %: posted on …". */
export function DeductionList({ deductions }: { deductions: DeductionJson[] }) {
  return (
    <ul className="deduction-list">
      {deductions.map((d) => (
        <li key={d.reason}>
          <span className="deduction-points">{formatDeduction(d.points)}</span>: {d.reason}
        </li>
      ))}
    </ul>
  );
}
