import type { Requirements } from "@/db/schema";
import { matchApprovedDraft } from "./draft-match";
import type { Evidence } from "./evidence/types";
import type { VerifierInput } from "./verdict";

// Deterministic checks: hashtags, mentions and links are matched in code, not judged by
// the model, so no wording in a deliverable can make a missing one count as present.
// They search the post's caption as fetched from its platform (the evidence), never what
// the creator typed about it; and the post's author must be the creator's declared handle,
// one they have verified (proved theirs with a one-time code): a handle anyone can declare
// would let them be paid for someone else's post.

export type RequirementKind = "hashtag" | "mention" | "link" | "disclosure";
export type RequirementResult = { kind: RequirementKind; value: string; found: boolean };
export type RequirementCheck = {
  results: RequirementResult[];
  /** Human strings for what is not there, e.g. "hashtag #ad", in requirement order. */
  missing: string[];
  /** The deal's disclosure rule on this text; null when the deal does not require it. */
  disclosure: DisclosureCheck | null;
};

const WORD = "[\\p{L}\\p{N}_]";

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function withPrefix(prefix: "#" | "@", value: string): string {
  const v = value.trim();
  return v.startsWith(prefix) ? v : `${prefix}${v}`;
}

/** Whole-token, case-insensitive: "#ad" matches "#AD." but not "#adidas" or "x#ad". */
export function hasHashtag(haystack: string, tag: string): boolean {
  const t = escapeRegExp(withPrefix("#", tag));
  return new RegExp(`(?<!${WORD})${t}(?!${WORD})`, "iu").test(haystack);
}

/**
 * Whole-token, case-insensitive. Handles may contain dots, so "@brand" does not match
 * "@brand.app", while a full stop ending a sentence still ends the handle; an e-mail
 * address ("me@brand.app") is not a mention.
 */
export function hasMention(haystack: string, handle: string): boolean {
  const m = escapeRegExp(withPrefix("@", handle));
  return new RegExp(`(?<![\\p{L}\\p{N}_.@])${m}(?!${WORD}|\\.${WORD})`, "iu").test(haystack);
}

type NormalizedLink = { base: string; search: string };

/**
 * A link reduced to what identifies it: scheme dropped (http ≡ https, or none), host
 * lower-cased, trailing slashes and the fragment removed. Null when it is not a web URL.
 */
export function normalizeLink(raw: string): NormalizedLink | null {
  let s = raw.trim().replace(/[.,;:!?)\]}'"]+$/u, "");
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `https://${s}`;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const port = url.port ? `:${url.port}` : "";
  const path = url.pathname.replace(/\/+$/, "");
  return { base: `${url.hostname.toLowerCase()}${port}${path}`, search: url.search };
}

// URL-looking tokens, with or without a scheme ("milestone.example/launch" counts). The
// lookbehind anchors matches at token starts, which keeps long inputs linear.
const URL_TOKEN =
  /(?<![\p{L}\p{N}_./-])(?:https?:\/\/)?(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}(?::\d{1,5})?(?:[/?#][^\s<>"'`]*)?/giu;

function linksIn(haystack: string): NormalizedLink[] {
  const out: NormalizedLink[] = [];
  for (const match of haystack.matchAll(URL_TOKEN)) {
    const link = normalizeLink(match[0]);
    if (link) out.push(link);
  }
  return out;
}

/**
 * True when the required link appears. A required link without a query string also
 * matches the same page with tracking parameters added (creators add UTM tags).
 */
export function hasLink(haystack: string, required: string): boolean {
  const want = normalizeLink(required);
  if (!want) return false;
  return linksIn(haystack).some(
    (l) => l.base === want.base && (want.search === "" || l.search === want.search),
  );
}

// ── Disclosure (FTC) ─────────────────────────────────────────────────────────────────
// A paid post must say so where people see it: the FTC's "Disclosures 101 for Social Media
// Influencers" (November 2019) and the Endorsement Guides (16 CFR Part 255, revised 2023) ask
// for a clear mark ("#ad", "#sponsored") placed so it is seen without clicking "more". Feeds
// cut a caption after about 125 characters, so the mark must end within the first 125.
// Accepted: exactly #ad, #sponsored, #paidpartnership (any letter case, ASCII only), or the
// platform's own paid-partnership label when the evidence shows it. Like the hashtag checks,
// nothing is normalised into a match: a homoglyph (Cyrillic "а", full-width letters, a
// full-width "＃"), a zero-width or other invisible character inside or right after the tag,
// a combining mark on it, or a tag glued to a word ("x#ad", "#adorable", "#ad_campaign",
// "#ad-free") is not the tag. Characters are counted as people see them: grapheme clusters
// (Intl.Segmenter), so an emoji made of several code points or a letter with a combining
// accent counts as one.

/** The disclosure hashtags a caption may carry (lower case; a caption's case does not matter). */
export const DISCLOSURE_TAGS = ["#ad", "#sponsored", "#paidpartnership"] as const;
/** How many characters of a caption show before the "more" fold. */
export const DISCLOSURE_FOLD = 125;

export type DisclosureCheck = {
  /** The post is disclosed: an accepted tag within the fold, or the platform's label. */
  found: boolean;
  via: "hashtag" | "platform_label" | null;
  /** The first accepted tag as written ("#Ad"), when the caption has one (visible or buried). */
  tag: string | null;
  /** The character (grapheme) the first accepted tag ends at, counted from 1. */
  endsAt: number | null;
  /** What the verifier lists under `missing`, or null when disclosed. */
  missing: string | null;
};

// A "#" not glued to a word or a URL path, and everything a platform could read as part of
// the tag after it: letters, digits, marks, "_", invisible format characters and hyphenated
// parts (so "#a\u200bd", "#ad\u200b" and "#ad-free" are each one odd token, not "#ad").
const TAG_TOKEN =
  /(?<![\p{L}\p{N}\p{M}_/])#([\p{L}\p{N}\p{M}\p{Cf}_]*(?:-[\p{L}\p{N}\p{M}\p{Cf}_]+)*)/gu;
const ACCEPTED = new Set(DISCLOSURE_TAGS.map((t) => t.slice(1)));

let segmenter: Intl.Segmenter | undefined;
/** User-perceived characters (extended grapheme clusters) in `text`. */
export function graphemeCount(text: string): number {
  segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

export const DISCLOSURE_MISSING = `Disclosure: add #ad (or #sponsored, #paidpartnership) within the first ${DISCLOSURE_FOLD} characters`;

/**
 * Whether a caption discloses the paid partnership where it is seen: an accepted tag ending
 * within the first DISCLOSURE_FOLD characters (leading white space, which platforms do not
 * show, is not counted), or `platformLabel` (the evidence shows the platform's
 * paid-partnership label). Pure: the same check runs on drafts and on fetched posts.
 */
export function checkDisclosure(
  caption: string,
  opts: { platformLabel?: boolean } = {},
): DisclosureCheck {
  const text = caption.replace(/^\s+/u, "");
  let first: { tag: string; endsAt: number } | null = null;
  for (const m of text.matchAll(TAG_TOKEN)) {
    const word = m[1] ?? "";
    if (!/^[A-Za-z]+$/.test(word) || !ACCEPTED.has(word.toLowerCase())) continue;
    const endsAt = graphemeCount(text.slice(0, (m.index ?? 0) + m[0].length));
    if (endsAt <= DISCLOSURE_FOLD)
      return { found: true, via: "hashtag", tag: m[0], endsAt, missing: null };
    first ??= { tag: m[0], endsAt };
  }
  if (opts.platformLabel)
    return {
      found: true,
      via: "platform_label",
      tag: first?.tag ?? null,
      endsAt: first?.endsAt ?? null,
      missing: null,
    };
  if (first)
    return {
      found: false,
      via: null,
      ...first,
      missing: `Disclosure: ${first.tag} is at character ${first.endsAt}, after the first ${DISCLOSURE_FOLD} that show before "more"; move it (or #ad, #sponsored, #paidpartnership) within the first ${DISCLOSURE_FOLD} characters`,
    };
  return { found: false, via: null, tag: null, endsAt: null, missing: DISCLOSURE_MISSING };
}

/** The text every requirement check searches: the fetched caption, or nothing. */
export function evidenceHaystack(e: Evidence): string {
  return e.status === "ok" ? e.record.caption : "";
}

/** What a deal's disclosure rule asks for, as the requirement lists name it. */
export const DISCLOSURE_RULE = `#ad, #sponsored or #paidpartnership within the first ${DISCLOSURE_FOLD} characters, or the platform's paid-partnership label`;

export type CheckOptions = {
  /** The deal's disclosure rule is on (deals.disclosure_required). */
  disclosure?: boolean;
  /** The platform shows its paid-partnership label on the post (evidence). */
  platformLabel?: boolean;
};

/**
 * Checks every required hashtag, mention and link against a text (the post's caption, or a
 * draft's), and the disclosure rule when the deal has it on (listed last).
 */
export function checkRequirements(
  requirements: Requirements,
  haystack: string,
  opts: CheckOptions = {},
): RequirementCheck {
  const results: RequirementResult[] = [
    ...requirements.hashtags.map((v) => ({
      kind: "hashtag" as const,
      value: withPrefix("#", v),
      found: hasHashtag(haystack, v),
    })),
    ...requirements.mentions.map((v) => ({
      kind: "mention" as const,
      value: withPrefix("@", v),
      found: hasMention(haystack, v),
    })),
    ...requirements.links.map((v) => ({
      kind: "link" as const,
      value: v.trim(),
      found: hasLink(haystack, v),
    })),
  ];
  const missing = [...new Set(results.filter((r) => !r.found).map((r) => `${r.kind} ${r.value}`))];
  if (!opts.disclosure) return { results, missing, disclosure: null };
  const disclosure = checkDisclosure(haystack, { platformLabel: opts.platformLabel });
  results.push({ kind: "disclosure", value: DISCLOSURE_RULE, found: disclosure.found });
  if (disclosure.missing) missing.push(disclosure.missing);
  return { results, missing, disclosure };
}

const platformNames: Record<string, string> = {
  youtube: "YouTube",
  tiktok: "TikTok",
  x: "X",
  instagram: "Instagram",
  sandbox: "Sandbox",
  web: "the web page",
};

/** A platform's name in a sentence: "instagram" → "Instagram". */
export const platformName = (platform: string) => platformNames[platform] ?? platform;

/**
 * What the evidence itself fails: the post could not be read, or its author is not (or
 * cannot be shown to be) the creator's declared handle on that platform, or that handle is
 * not verified as the creator's.
 */
export function evidenceProblems(
  e: Evidence,
  declaredHandle: string | null,
  handleVerified: boolean,
): string[] {
  if (e.status !== "ok") return [`post not verifiable (${e.status}): ${e.error}`];
  const where = platformName(e.record.platform);
  const author = e.record.authorHandle;
  if (!author) return [`post author could not be confirmed: ${where} does not name the author`];
  // A page's self-declared author (twitter:creator) is no platform account a creator declares.
  if (e.record.platform === "web")
    return [`post author @${author} could not be confirmed: a web page is not a platform account`];
  if (!declaredHandle)
    return [
      `post author @${author} cannot be matched: the creator has declared no ${where} handle on their profile`,
    ];
  if (author !== declaredHandle.replace(/^@+/, "").toLowerCase())
    return [
      `post author @${author} is not the creator's declared ${where} handle @${declaredHandle}`,
    ];
  if (!handleVerified)
    return [
      `handle @${author} is not verified: the creator has not proved the ${where} handle is theirs (profile → platform handles)`,
    ];
  return [];
}

/**
 * Everything decided in code: evidence problems first, then the requirements not in the
 * caption, then how the caption differs from the approved draft (`draft`), if it does.
 */
export function deterministicCheck(
  input: VerifierInput,
): RequirementCheck & { evidence: string[]; draft: string[] } {
  const check = checkRequirements(input.requirements, evidenceHaystack(input.evidence), {
    disclosure: input.disclosureRequired,
    platformLabel: input.evidence.status === "ok" && input.evidence.record.paidPartnership === true,
  });
  const evidence = evidenceProblems(input.evidence, input.declaredHandle, input.handleVerified);
  // An unread post: its requirements were not checked, so they are not listed as missing.
  if (input.evidence.status !== "ok") return { ...check, evidence, draft: [], missing: evidence };
  const approved = input.approvedDraft;
  const draft = approved
    ? matchApprovedDraft(approved, input.evidence.record.caption, approved.minSimilarity)
        .differences
    : [];
  return { ...check, evidence, draft, missing: [...evidence, ...check.missing, ...draft] };
}
