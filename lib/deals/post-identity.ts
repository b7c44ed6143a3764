import { normalizeLink } from "@/lib/verify/checks";

// What identifies a post, so one post is the paid evidence of one milestone only
// (lib/deals/evidence-claims.ts). A post URL is reduced to a key: the link as the
// requirement checks compare it (normalizeLink: no scheme, host lower-cased, no fragment,
// no trailing slash), without the host's www./m./mobile. prefix, with tracking parameters
// (utm_*, fbclid, share ids…) dropped and the rest sorted, and with the big platforms'
// aliases of one post made one (youtu.be/ID, /shorts/ID → youtube.com/watch?v=ID;
// twitter.com → x.com; Instagram /reel/ID and /tv/ID → /p/ID). The path keeps its case
// (post ids are case-sensitive). Once the post has been fetched, the canonical URL the
// platform names and the evidence's content hash identify it too.

/** Query parameters that track who shared a link, not which post it is. */
const TRACKING = new Set([
  "fbclid",
  "gclid",
  "dclid",
  "msclkid",
  "mc_cid",
  "mc_eid",
  "igsh",
  "igshid",
  "si",
  "feature",
  "ref",
  "ref_src",
  "ref_url",
  "_r",
  "_t",
  "is_from_webapp",
  "sender_device",
]);

const isTracking = (name: string) => name.toLowerCase().startsWith("utm_") || TRACKING.has(name);

/** The key of a post URL (see above); null when it is not an http(s) URL. */
export function postUrlKey(raw: string): string | null {
  const link = normalizeLink(raw);
  if (!link) return null;
  const slash = link.base.indexOf("/");
  let host = slash === -1 ? link.base : link.base.slice(0, slash);
  let path = slash === -1 ? "" : link.base.slice(slash);
  host = host.replace(/^(www|m|mobile)\./, "");
  const params = new URLSearchParams(link.search);
  if (host === "twitter.com") host = "x.com";
  if (host === "x.com") params.delete("s"); // X's share-source marker
  if (host === "youtu.be" || host === "youtube.com") {
    const short = host === "youtu.be" ? /^\/([^/]+)$/.exec(path) : null;
    const alias = /^\/(?:shorts|live|embed)\/([^/]+)$/.exec(path);
    const id = short?.[1] ?? alias?.[1];
    host = "youtube.com";
    if (id) {
      path = "/watch";
      params.set("v", id);
    }
  }
  if (host === "instagram.com" || host === "instagr.am") {
    host = "instagram.com";
    path = path.replace(/^\/(?:[^/]+\/)?(?:reels?|tv|p)\/([^/]+)$/, "/p/$1");
  }
  const kept = [...params].filter(([name]) => !isTracking(name));
  kept.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const search = kept.length ? `?${new URLSearchParams(kept).toString()}` : "";
  return `${host}${path}${search}`;
}

export type EvidenceKey = { kind: "url" | "content"; key: string };

/** The keys a post submitted at `url` is claimed under before anything is fetched. */
export function submittedKeys(url: string): EvidenceKey[] {
  const key = postUrlKey(url);
  return key ? [{ kind: "url", key }] : [{ kind: "url", key: url.trim() }];
}

/**
 * The keys a revision is paid on: its submitted URL's, and once its post was read, the
 * canonical URL the platform named and the evidence's content hash. Sorted, so concurrent
 * claims take the rows' locks in one order.
 */
export function payingKeys(
  url: string,
  evidence: { status: string; canonicalUrl: string | null; contentHash: string } | null,
): EvidenceKey[] {
  const keys = submittedKeys(url);
  if (evidence?.status === "ok") {
    const canonical = evidence.canonicalUrl ? postUrlKey(evidence.canonicalUrl) : null;
    if (canonical) keys.push({ kind: "url", key: canonical });
    keys.push({ kind: "content", key: evidence.contentHash.toLowerCase() });
  }
  const unique = new Map(keys.map((k) => [`${k.kind} ${k.key}`, k]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, k]) => k);
}
