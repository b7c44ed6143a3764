import { env, sandboxOrigin, sandboxSocialEnabled } from "@/lib/env";
import { fetchForEvidence, jsonOf, str } from "./fetch";
import { type Adapter, normalizeHandle } from "./types";
import { webUrl } from "./urls";

// The built-in sandbox platform (app/social) of the embedded default. Its posts are read like
// any platform's: through the safe fetcher, from its oEmbed endpoint on the app's own origin,
// which is the one local origin this adapter may reach (and only while the sandbox is on).

const POST_PATH = /^\/social\/p\/([0-9a-f-]{36})\/?$/i;

/** The URL a sandbox post is published at. */
export function sandboxPostUrl(id: string, origin = sandboxOrigin()): string {
  return `${origin}/social/p/${id}`;
}

/** The post id of a sandbox post URL on this app's sandbox origin, or null. */
export function sandboxPostId(raw: string, origin = sandboxOrigin()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return POST_PATH.exec(url.pathname)?.[1]?.toLowerCase() ?? null;
}

export const sandbox: Adapter = {
  platform: "sandbox",
  matches: (url, options) => {
    const e = options.env ?? env();
    return sandboxSocialEnabled(e) && sandboxPostId(url.href, sandboxOrigin(e)) !== null;
  },
  read: async (url, options) => {
    const origin = new URL(options.endpoints?.sandbox ?? sandboxOrigin(options.env ?? env()));
    const endpoint = new URL("/api/social/oembed", origin);
    endpoint.searchParams.set("url", url.href);
    const port = origin.port || (origin.protocol === "https:" ? "443" : "80");
    const fetched = await fetchForEvidence(endpoint.href, ["application/json"], options, [
      `${origin.hostname.replace(/^\[(.*)\]$/, "$1")}:${port}`,
    ]);
    if (!fetched.ok) return fetched.result;
    const o = jsonOf(fetched.res);
    if (!o) return { status: "unreachable", error: "The sandbox's oEmbed answer was not JSON." };
    const handle = str(o.author_name);
    return {
      status: "ok",
      facts: {
        canonicalUrl: webUrl(o.url) ?? url.href,
        authorHandle: handle ? normalizeHandle(handle) : null,
        caption: str(o.title) ?? "",
        mediaType: str(o.media_type) ?? str(o.type),
        thumbnailUrl: webUrl(o.thumbnail_url),
        publishedAt: str(o.published_at),
        // The sandbox's paid-partnership label (its oEmbed's own field).
        ...(o.paid_partnership === true ? { paidPartnership: true as const } : {}),
      },
    };
  },
};
