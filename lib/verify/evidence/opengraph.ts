import { fetchForEvidence, str } from "./fetch";
import { canonicalLink, metaTags, titleOf } from "./html";
import { type Adapter, normalizeHandle } from "./types";
import { webUrl } from "./urls";

// Any other page (and Instagram without an oEmbed token): its OpenGraph / Twitter-card tags.
// Pages rarely name their author's handle; when they do not, authorship stays unconfirmed.

export const opengraph: Adapter = {
  platform: "web",
  matches: () => true,
  read: async (url, options) => {
    const fetched = await fetchForEvidence(
      url.href,
      ["text/html", "application/xhtml+xml"],
      options,
    );
    if (!fetched.ok) return fetched.result;
    const html = fetched.res.text();
    const meta = metaTags(html);
    const caption =
      str(meta["og:description"]) ?? str(meta["twitter:description"]) ?? str(meta.description);
    const title = str(meta["og:title"]) ?? str(meta["twitter:title"]) ?? titleOf(html) ?? "";
    const creator = str(meta["twitter:creator"]) ?? str(meta["article:author"]);
    const published = str(meta["article:published_time"]) ?? str(meta["og:published_time"]);
    const publishedMs = published ? Date.parse(published) : Number.NaN;
    // The page's own words: only http(s) URLs (relative ones resolved against the page).
    const page = fetched.res.url;
    const canonical =
      webUrl(meta["og:url"], page) ?? webUrl(canonicalLink(html), page) ?? fetched.res.url;
    const thumbnail = webUrl(meta["og:image"], page) ?? webUrl(meta["twitter:image"], page);
    return {
      status: "ok",
      facts: {
        canonicalUrl: canonical,
        authorHandle: creator?.startsWith("@") ? normalizeHandle(creator) : null,
        caption: [title, caption].filter(Boolean).join("\n"),
        mediaType: str(meta["og:type"]),
        thumbnailUrl: thumbnail,
        publishedAt: Number.isFinite(publishedMs) ? new Date(publishedMs).toISOString() : null,
      },
    };
  },
};
