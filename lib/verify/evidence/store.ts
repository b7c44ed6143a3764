import type { Evidence as EvidenceRow, evidence } from "@/db/schema";
import type { Evidence, EvidenceRecord } from "./types";

// Evidence as a database row and back. The row of a revision is what its verdict rests on.

export function evidenceRow(
  milestoneId: string,
  revision: number,
  e: Evidence,
): typeof evidence.$inferInsert {
  if (e.status === "ok")
    return {
      milestoneId,
      revision,
      status: e.status,
      platform: e.record.platform,
      url: e.record.url,
      canonicalUrl: e.record.canonicalUrl,
      authorHandle: e.record.authorHandle,
      caption: e.record.caption,
      mediaType: e.record.mediaType,
      thumbnailUrl: e.record.thumbnailUrl,
      publishedAt: e.record.publishedAt ? new Date(e.record.publishedAt) : null,
      paidPartnership: e.record.paidPartnership === true,
      fetchedAt: new Date(e.record.fetchedAt),
      contentHash: e.contentHash,
    };
  return {
    milestoneId,
    revision,
    status: e.status,
    platform: e.platform,
    url: e.url,
    fetchedAt: new Date(e.fetchedAt),
    contentHash: e.contentHash,
    error: e.error,
  };
}

/** The evidence a stored row holds (for a verdict computed after the row was stored). */
export function evidenceOfRow(row: EvidenceRow): Evidence {
  const fetchedAt = row.fetchedAt.toISOString();
  const contentHash = row.contentHash as `0x${string}`;
  if (row.status === "ok") {
    const record: EvidenceRecord = {
      platform: row.platform as EvidenceRecord["platform"],
      url: row.url,
      canonicalUrl: row.canonicalUrl ?? row.url,
      authorHandle: row.authorHandle,
      caption: row.caption ?? "",
      mediaType: row.mediaType,
      thumbnailUrl: row.thumbnailUrl,
      publishedAt: row.publishedAt?.toISOString() ?? null,
      ...(row.paidPartnership ? { paidPartnership: true as const } : {}),
      fetchedAt,
    };
    return { status: "ok", record, contentHash };
  }
  return {
    status: row.status,
    platform: row.platform as EvidenceRecord["platform"],
    url: row.url,
    error: row.error ?? "The post could not be read.",
    fetchedAt,
    contentHash,
  };
}
