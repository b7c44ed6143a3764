import type { EvidenceStatus } from "@/db/schema";
import type { Env } from "@/lib/env";
import type { Resolver } from "@/lib/net/safe-fetch";

// What a deliverable's post looked like when it was fetched: the same record whichever
// platform it came from. The verifier judges this, not what the creator wrote about it.

export const evidencePlatforms = ["youtube", "tiktok", "x", "instagram", "sandbox", "web"] as const;
export type EvidencePlatform = (typeof evidencePlatforms)[number];

export type EvidenceRecord = {
  platform: EvidencePlatform;
  url: string;
  canonicalUrl: string;
  /** Lower case, without "@"; null when the platform does not say. */
  authorHandle: string | null;
  caption: string;
  mediaType: string | null;
  thumbnailUrl: string | null;
  /** ISO 8601 when the platform says. */
  publishedAt: string | null;
  /**
   * Present (true) only when the platform shows its paid-partnership label on the post and
   * says so in what the adapter reads (the sandbox does; the public oEmbed answers of
   * YouTube, TikTok, X and Instagram do not). Absent otherwise, so the content hash of a
   * post without it is what it was before the field existed.
   */
  paidPartnership?: true;
  fetchedAt: string;
};

/** The outcome of reading one post: a record, or why there is none. */
export type Evidence =
  | { status: "ok"; record: EvidenceRecord; contentHash: `0x${string}` }
  | {
      status: Exclude<EvidenceStatus, "ok">;
      platform: EvidencePlatform;
      url: string;
      error: string;
      fetchedAt: string;
      contentHash: `0x${string}`;
    };

/** The fields an adapter reads from a platform (the rest is filled in by fetchEvidence). */
export type PostFacts = Omit<EvidenceRecord, "platform" | "url" | "fetchedAt">;

/** A platform's answer: the post's facts, or why it cannot be read. */
export type AdapterResult =
  | { status: "ok"; facts: PostFacts }
  | { status: Exclude<EvidenceStatus, "ok">; error: string };

export type EvidenceOptions = {
  env?: Env;
  /** Override a platform's oEmbed endpoint (tests point them at a local fake platform). */
  endpoints?: Partial<Record<EvidencePlatform, string>>;
  /** Extra `host:port` the fetcher may reach although local (tests' fake platforms). */
  allowHosts?: string[];
  resolve?: Resolver;
  timeoutMs?: number;
};

export type Adapter = {
  platform: EvidencePlatform;
  /** Whether this adapter reads URLs like this one. */
  matches(url: URL, options: EvidenceOptions): boolean;
  read(url: URL, options: EvidenceOptions): Promise<AdapterResult>;
};

/** A handle as compared: lower case, no leading "@", trimmed. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@+/, "").toLowerCase();
}

export const onHost = (url: URL, hosts: string[]) => {
  const h = url.hostname.toLowerCase();
  return hosts.some((x) => h === x || h.endsWith(`.${x}`));
};
