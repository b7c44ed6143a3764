import { env } from "@/lib/env";
import { fetchForEvidence, jsonOf, str } from "./fetch";
import { textOf } from "./html";
import {
  type Adapter,
  type AdapterResult,
  type EvidenceOptions,
  type EvidencePlatform,
  normalizeHandle,
  onHost,
  type PostFacts,
} from "./types";
import { webUrl } from "./urls";

// YouTube, TikTok, X and Instagram through their public oEmbed endpoints (Instagram's is the
// Graph API's and needs an access token). Each answers JSON about one post; what differs is
// where the caption and the author's handle are.

type OEmbed = Record<string, unknown>;

const DEFAULT_ENDPOINTS: Record<"youtube" | "tiktok" | "x" | "instagram", string> = {
  youtube: "https://www.youtube.com/oembed",
  tiktok: "https://www.tiktok.com/oembed",
  x: "https://publish.twitter.com/oembed",
  instagram: "https://graph.facebook.com/v21.0/instagram_oembed",
};

/** The path segment after the host of a profile URL: "https://x.com/name" → "name". */
function handleFromProfileUrl(raw: unknown): string | null {
  const s = webUrl(raw);
  if (!s) return null;
  try {
    const first = new URL(s).pathname.split("/").filter(Boolean)[0];
    return first ? normalizeHandle(decodeURIComponent(first)) : null;
  } catch {
    return null;
  }
}

async function readOEmbed(
  platform: keyof typeof DEFAULT_ENDPOINTS,
  postUrl: URL,
  options: EvidenceOptions,
  params: Record<string, string>,
  facts: (o: OEmbed) => PostFacts | string,
): Promise<AdapterResult> {
  const endpoint = new URL(options.endpoints?.[platform] ?? DEFAULT_ENDPOINTS[platform]);
  endpoint.searchParams.set("url", postUrl.href);
  for (const [k, v] of Object.entries(params)) endpoint.searchParams.set(k, v);
  const fetched = await fetchForEvidence(
    endpoint.href,
    ["application/json", "text/json", "text/javascript"],
    options,
  );
  if (!fetched.ok) return fetched.result;
  const body = jsonOf(fetched.res);
  if (!body) return { status: "unreachable", error: "The platform's oEmbed answer was not JSON." };
  const out = facts(body);
  return typeof out === "string"
    ? { status: "unreachable", error: out }
    : { status: "ok", facts: out };
}

// URLs in an answer are kept only when absolute http(s) (lib/verify/evidence/urls.ts).
const base = (o: OEmbed, url: URL) => ({
  canonicalUrl: url.href,
  thumbnailUrl: webUrl(o.thumbnail_url),
  mediaType: str(o.type),
  publishedAt: null,
});

export const youtube: Adapter = {
  platform: "youtube",
  matches: (url) => onHost(url, ["youtube.com", "youtu.be"]),
  read: (url, options) =>
    readOEmbed("youtube", url, options, { format: "json" }, (o) => ({
      ...base(o, url),
      // author_url is https://www.youtube.com/@handle (older channels: /channel/ID, /user/name).
      authorHandle: handleFromProfileUrl(o.author_url),
      caption: str(o.title) ?? "",
      mediaType: "video",
    })),
};

export const tiktok: Adapter = {
  platform: "tiktok",
  matches: (url) => onHost(url, ["tiktok.com"]),
  read: (url, options) =>
    readOEmbed("tiktok", url, options, {}, (o) => ({
      ...base(o, url),
      authorHandle: str(o.author_unique_id)
        ? normalizeHandle(String(o.author_unique_id))
        : handleFromProfileUrl(o.author_url),
      caption: str(o.title) ?? "",
      mediaType: "video",
    })),
};

// X's embed: <blockquote><p>the post's text</p>&mdash; Name (@handle) <a href="…">date</a></blockquote>
function xFacts(o: OEmbed, url: URL): PostFacts | string {
  const html = str(o.html);
  if (!html) return "The platform's oEmbed answer has no post.";
  const paragraph = /<p\b[^>]*>([\s\S]*?)<\/p>/i.exec(html)?.[1] ?? "";
  const links = [...html.matchAll(/<a\b[^>]*>([^<]*)<\/a>\s*<\/blockquote>/gi)];
  const date = links.at(-1)?.[1];
  const parsed = date ? Date.parse(`${date} UTC`) : Number.NaN;
  return {
    ...base(o, url),
    canonicalUrl: webUrl(o.url) ?? url.href,
    authorHandle: handleFromProfileUrl(o.author_url),
    caption: textOf(paragraph),
    mediaType: "post",
    publishedAt: Number.isFinite(parsed) ? new Date(parsed).toISOString() : null,
  };
}

export const x: Adapter = {
  platform: "x",
  matches: (url) => onHost(url, ["x.com", "twitter.com"]),
  read: (url, options) =>
    readOEmbed("x", url, options, { omit_script: "1", dnt: "true" }, (o) => xFacts(o, url)),
};

// Instagram's Graph oEmbed: author_name is the handle and title the caption. Its embed HTML
// holds no caption ("A post shared by …"), so without a title the caption is empty and the
// requirements cannot be confirmed: the brand decides.
function instagramFacts(o: OEmbed, url: URL): PostFacts {
  return {
    ...base(o, url),
    authorHandle: str(o.author_name) ? normalizeHandle(String(o.author_name)) : null,
    caption: str(o.title) ?? "",
    mediaType: /\/(reel|tv)\//.test(url.pathname) ? "video" : "post",
  };
}

export const instagram: Adapter = {
  platform: "instagram",
  matches: (url, options) =>
    onHost(url, ["instagram.com", "instagr.am"]) && !!(options.env ?? env()).INSTAGRAM_OEMBED_TOKEN,
  read: (url, options) =>
    readOEmbed(
      "instagram",
      url,
      options,
      { access_token: (options.env ?? env()).INSTAGRAM_OEMBED_TOKEN ?? "", omitscript: "true" },
      (o) => instagramFacts(o, url),
    ),
};

export const oembedPlatforms: EvidencePlatform[] = ["youtube", "tiktok", "x", "instagram"];
