import {
  deterministicCheck,
  platformName,
  type RequirementKind,
  type RequirementResult,
} from "./checks";
import { CERTAIN, UNCERTAIN, verdictConfidence } from "./confidence";
import { RULE_CHECK } from "./labels";
import type { Deduction, Verdict, VerifierInput } from "./verdict";

// The offline verifier used when no model is configured (the embedded setup). It is
// deterministic and says exactly what it checked; it cannot judge free-text criteria
// and says so rather than pretending. It reads the fetched post (evidence): its caption,
// its canonical URL and platform; the creator's own text counts for nothing.
//
// Score (basis points, out of 10000):
//   requirements  6000 × share of required hashtags/mentions/links present (all if none),
//                 the deal's disclosure rule counting as one more item when it is on
//   post URL      500 http(s) + 1000 on the deal's platform (or a known one) + 500 has a path
//   caption       1000 non-empty + 1000 at least CAPTION_MIN_CHARS characters
// Approved when nothing is missing and the score is at least APPROVE_AT_BPS. Each share lost
// is a deduction with its reason, so the card can say why a post scored 90 %.

export const RUBRIC_MODEL_ID = "rubric-v2";
const APPROVE_AT_BPS = 7000;
const REQUIREMENTS_BPS = 6000;
const CAPTION_MIN_CHARS = 40;

const PLATFORM_HOSTS: Record<string, string[]> = {
  instagram: ["instagram.com", "instagr.am"],
  tiktok: ["tiktok.com"],
  x: ["x.com", "twitter.com"],
  youtube: ["youtube.com", "youtu.be"],
};
const OTHER_HOSTS = [
  "facebook.com",
  "fb.watch",
  "threads.net",
  "threads.com",
  "linkedin.com",
  "twitch.tv",
  "vimeo.com",
  "snapchat.com",
  "pinterest.com",
  "reddit.com",
  "bsky.app",
  "tumblr.com",
  "medium.com",
  "substack.com",
];

const onHost = (hostname: string, hosts: string[]) =>
  hosts.some((h) => hostname === h || hostname.endsWith(`.${h}`));

type UrlCheck = { bps: number; notes: string[]; deductions: Deduction[] };

function checkUrl(raw: string, platform: string | undefined, source: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return {
      bps: 0,
      notes: ["the post URL is not a valid URL"],
      deductions: [{ bps: 2000, reason: "the post URL is not a valid URL" }],
    };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return {
      bps: 0,
      notes: ["the post URL is not an http(s) link"],
      deductions: [{ bps: 2000, reason: "the post URL is not an http(s) link" }],
    };
  const notes = [`the post URL is an ${url.protocol.slice(0, -1)} link`];
  const deductions: Deduction[] = [];
  let bps = 500;
  const host = url.hostname.toLowerCase();
  const platformHosts = platform ? PLATFORM_HOSTS[platform] : undefined;
  const dealPlatform = platform ? platformName(platform) : "";
  if (source === "sandbox") {
    // The embedded setup's stand-in: a real post, but not on the deal's own platform.
    if (platformHosts) {
      notes.push(`on the sandbox platform, not on the deal's platform (${platform})`);
      deductions.push({ bps: 1000, reason: `posted on the sandbox, not on ${dealPlatform}` });
    } else {
      bps += 1000;
      notes.push("on the sandbox platform");
    }
  } else if (platformHosts) {
    if (onHost(host, platformHosts)) {
      bps += 1000;
      notes.push(`on ${host}, which matches the deal's platform (${platform})`);
    } else {
      notes.push(`on ${host}, not on the deal's platform (${platform})`);
      deductions.push({ bps: 1000, reason: `posted on ${host}, not on ${dealPlatform}` });
    }
  } else if (onHost(host, [...Object.values(PLATFORM_HOSTS).flat(), ...OTHER_HOSTS])) {
    bps += 1000;
    notes.push(`on ${host}, a known social platform`);
  } else {
    notes.push(`on ${host}, not a known social platform`);
    deductions.push({
      bps: 1000,
      reason: `posted on ${host}, which is not a known social platform`,
    });
  }
  if (url.pathname.replace(/\/+$/, "") !== "") {
    bps += 500;
    notes.push("pointing to a specific page rather than a home page");
  } else {
    notes.push("pointing to a home page, not a specific post");
    deductions.push({ bps: 500, reason: "the link points to a home page, not a specific post" });
  }
  return { bps, notes, deductions };
}

function summarize(results: RequirementResult[], kind: RequirementKind, label: string): string {
  const ofKind = results.filter((r) => r.kind === kind);
  return `${ofKind.filter((r) => r.found).length}/${ofKind.length} ${label}`;
}

/** ", disclosure present" / ", disclosure missing" when the deal requires it, else nothing. */
function disclosureSummary(results: RequirementResult[]): string {
  const d = results.find((r) => r.kind === "disclosure");
  return d ? `, disclosure ${d.found ? "present" : "missing"}` : "";
}

const fmt = (bps: number) =>
  `${(bps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} %`;

/**
 * The share each missing required item takes off the requirements' 60 %: equal parts, the
 * rounding spread so that they add up to exactly what the score lost.
 */
function requirementDeductions(results: RequirementResult[]): Deduction[] {
  const n = results.length;
  const out: Deduction[] = [];
  let before = 0;
  results.forEach((r, i) => {
    const upTo = Math.round((REQUIREMENTS_BPS * (i + 1)) / n);
    const share = upTo - before;
    before = upTo;
    if (!r.found)
      out.push({
        bps: share,
        reason:
          r.kind === "disclosure"
            ? `the post does not disclose the paid partnership (${r.value})`
            : `${r.kind} ${r.value} is not in the post's caption`,
      });
  });
  return out;
}

/** The rubric's verdict on one deliverable revision; same input, same output. */
export function rubricVerdict(input: VerifierInput): Verdict {
  const { results, missing, evidence: evidenceMissing, draft } = deterministicCheck(input);
  const post = input.evidence.status === "ok" ? input.evidence.record : null;
  const found = results.filter((r) => r.found).length;
  const requirementsBps =
    results.length === 0
      ? REQUIREMENTS_BPS
      : Math.round((REQUIREMENTS_BPS * found) / results.length);

  const url = post
    ? checkUrl(post.canonicalUrl, input.platform, post.platform)
    : { bps: 0, notes: ["the post could not be read"], deductions: [] };

  const caption = (post?.caption ?? "").trim();
  const captionBps = (caption ? 1000 : 0) + (caption.length >= CAPTION_MIN_CHARS ? 1000 : 0);
  const captionNote = caption
    ? `the caption has ${caption.length} characters${caption.length < CAPTION_MIN_CHARS ? ` (under ${CAPTION_MIN_CHARS})` : ""}`
    : "the caption is empty";

  // Without evidence there is nothing to score.
  const scoreBps = post ? requirementsBps + url.bps + captionBps : 0;
  const approved = missing.length === 0 && scoreBps >= APPROVE_AT_BPS;
  const deductions: Deduction[] = post
    ? [
        ...requirementDeductions(results),
        ...url.deductions,
        ...(caption
          ? caption.length < CAPTION_MIN_CHARS
            ? [{ bps: 1000, reason: `the caption is under ${CAPTION_MIN_CHARS} characters` }]
            : []
          : [{ bps: 2000, reason: "the caption is empty" }]),
      ]
    : [{ bps: 10_000, reason: "the post could not be read, so nothing in it could be checked" }];

  const criteria = input.requirements.criteria.length;
  const lines = [
    `${RULE_CHECK} (${RUBRIC_MODEL_ID}): no AI model is configured, so this verdict comes from deterministic checks only.`,
    `Required items present: ${summarize(results, "hashtag", "hashtags")}, ${summarize(results, "mention", "mentions")}, ${summarize(results, "link", "links")}${disclosureSummary(results)}${missing.length > evidenceMissing.length + draft.length ? ` (missing: ${missing.slice(evidenceMissing.length, missing.length - draft.length).join(", ")})` : ""}.`,
    ...(input.approvedDraft && post
      ? [
          draft.length
            ? `Approved draft: the post does not match it (${draft.join("; ")}).`
            : `Approved draft: the post's caption matches revision ${input.approvedDraft.revision}.`,
        ]
      : []),
    `Post: ${url.notes.join(", ")}; ${captionNote}.`,
    post
      ? `Read from ${post.platform}: post by ${post.authorHandle ? `@${post.authorHandle}` : "an unnamed author"}.`
      : "The post could not be read, so nothing in it could be checked.",
    ...evidenceMissing.map((m) => `Evidence: ${m}.`),
    criteria
      ? `Not assessed: ${criteria} ${criteria === 1 ? "criterion needs" : "criteria need"} judgement that this rule check cannot make, so the brand decides on ${criteria === 1 ? "it" : "them"} (or configure an AI model to judge them).`
      : "There are no free-text criteria to judge.",
    `Score ${fmt(scoreBps)} = required items ${fmt(requirementsBps)} of 60 % + post URL ${fmt(url.bps)} of 20 % + caption ${fmt(captionBps)} of 20 %.`,
    approved
      ? `Approved: every required item is present and the score is at least ${fmt(APPROVE_AT_BPS)}.`
      : evidenceMissing.length
        ? "Not approved: the post's evidence does not hold (see above); the brand decides."
        : missing.length > draft.length
          ? "Not approved: required items are missing."
          : draft.length
            ? "Not approved: the post does not match the approved draft."
            : `Not approved: the score is below ${fmt(APPROVE_AT_BPS)}.`,
  ];
  return {
    approved,
    score: scoreBps / 10_000,
    reasoning: lines.join(" "),
    missing,
    deductions,
    // Rules decide everything here but the free-text criteria, which nobody has judged.
    confidence: verdictConfidence(input, missing, criteria > 0 ? UNCERTAIN : CERTAIN),
  };
}
