// URLs taken from what a platform or a page says about a post (og:url, og:image, an oEmbed
// answer's url, thumbnail_url, author_url) are the page author's words, and a hostile page
// can say `javascript:…`, `data:…` or junk. They are shown as links and images, so only
// absolute http(s) URLs are kept; anything else is dropped (null).

/** Longer than any real post or image URL; a longer one is dropped, not stored. */
const MAX_URL_LENGTH = 2048;

/**
 * `raw` as an absolute http(s) URL (normalised by the URL parser), or null. A relative URL is
 * resolved against `base` (the page it was read from) when one is given, and dropped otherwise.
 * URLs with credentials are dropped too.
 */
export function webUrl(raw: unknown, base?: string | URL): string | null {
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  if (!text || text.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = base === undefined ? new URL(text) : new URL(text, base);
  } catch {
    return null;
  }
  // The parser has already removed what hides a scheme (leading spaces and control
  // characters, tabs and newlines inside it) and lower-cased it: "JaVaScRiPt:" is "javascript:".
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password) return null;
  return url.href.length > MAX_URL_LENGTH ? null : url.href;
}
