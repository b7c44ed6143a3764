import type { DealJson } from "./format";

// The deal's disclosure rule in words, for its terms (deal header, accept panel): what a
// post must carry, or that the brand turned the rule off and why. Never silent either way.

/** What a post must carry, in one sentence (the verifier's rule: lib/verify/checks.ts). */
export const disclosureRuleText =
  "#ad, #sponsored or #paidpartnership within the first 125 characters of the caption (before “more”), or the platform’s paid-partnership label";

export function DisclosureTerms({ disclosure }: { disclosure: DealJson["disclosure"] }) {
  if (disclosure.required)
    return (
      <span className="stack tight" data-testid="deal-disclosure">
        <span>Required</span>
        <span className="muted small">
          Each post must carry {disclosureRuleText}, as the FTC asks of paid posts.
        </span>
      </span>
    );
  return (
    <span className="stack tight" data-testid="deal-disclosure">
      <span className="warn-text">Not required by this deal</span>
      <span className="muted small break">The brand’s reason: “{disclosure.reason}”</span>
    </span>
  );
}
