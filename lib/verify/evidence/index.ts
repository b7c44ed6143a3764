import { type Hex, keccak256, toBytes } from "viem";
import { canonicalJson } from "../record";
import { instagram, tiktok, x, youtube } from "./oembed";
import { opengraph } from "./opengraph";
import { sandbox } from "./sandbox";
import type { Adapter, Evidence, EvidenceOptions, EvidencePlatform, EvidenceRecord } from "./types";

// Reads the post behind a deliverable URL with the adapter for its platform. Never throws
// for anything the URL or the platform does: an unreadable post is evidence too (status
// other than ok), and such a deliverable is never approved automatically.

export const adapters: Adapter[] = [sandbox, youtube, tiktok, x, instagram, opengraph];

export function adapterFor(url: URL, options: EvidenceOptions = {}): Adapter {
  return adapters.find((a) => a.matches(url, options)) ?? opengraph;
}

/** What identifies the post's content: the record without when it was fetched. */
export function evidenceContentHash(
  value: Omit<EvidenceRecord, "fetchedAt"> | Record<string, unknown>,
): Hex {
  return keccak256(toBytes(canonicalJson(value)));
}

export async function fetchEvidence(
  rawUrl: string,
  options: EvidenceOptions = {},
): Promise<Evidence> {
  const fetchedAt = new Date().toISOString();
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    return failed(
      "web",
      rawUrl,
      "unsupported",
      "The deliverable URL is not a valid URL.",
      fetchedAt,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return failed("web", rawUrl, "unsupported", "Only http(s) post URLs can be read.", fetchedAt);
  const adapter = adapterFor(url, options);
  const result = await adapter.read(url, options);
  if (result.status !== "ok")
    return failed(adapter.platform, url.href, result.status, result.error, fetchedAt);
  const { fetchedAt: _omit, ...content } = {
    platform: adapter.platform,
    url: url.href,
    ...result.facts,
    caption: result.facts.caption.slice(0, 10_000),
    fetchedAt,
  } satisfies EvidenceRecord;
  const record: EvidenceRecord = { ...content, fetchedAt };
  return { status: "ok", record, contentHash: evidenceContentHash(content) };
}

function failed(
  platform: EvidencePlatform,
  url: string,
  status: Exclude<Evidence["status"], "ok">,
  error: string,
  fetchedAt: string,
): Evidence {
  return {
    status,
    platform,
    url,
    error,
    fetchedAt,
    contentHash: evidenceContentHash({ platform, url, status, error }),
  };
}

export { sandboxPostId, sandboxPostUrl } from "./sandbox";
export * from "./types";
