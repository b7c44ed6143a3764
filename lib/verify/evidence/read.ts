import "server-only";
import type { Db } from "@/db/client";
import { findHandle } from "@/db/queries/creator-handles";
import { findVisibleMilestone } from "@/db/queries/deals";
import { listEvidence } from "@/db/queries/evidence";
import type { Evidence as EvidenceRow, User } from "@/db/schema";
import { notFound } from "@/lib/errors";

// GET /api/milestones/:id/evidence: what the verifier read for each revision, for the deal's
// parties, with the creator's declared handle on each post's platform so a mismatch shows.

export type EvidenceJson = {
  revision: number;
  status: string;
  platform: string;
  url: string;
  canonicalUrl: string | null;
  authorHandle: string | null;
  /** The creator's declared handle on this platform now; null when none. */
  declaredHandle: string | null;
  authorMatches: boolean;
  caption: string | null;
  mediaType: string | null;
  thumbnailUrl: string | null;
  publishedAt: string | null;
  fetchedAt: string;
  contentHash: string;
  error: string | null;
};

function evidenceJson(row: EvidenceRow, declared: string | null): EvidenceJson {
  return {
    revision: row.revision,
    status: row.status,
    platform: row.platform,
    url: row.url,
    canonicalUrl: row.canonicalUrl,
    authorHandle: row.authorHandle,
    declaredHandle: declared,
    authorMatches: !!row.authorHandle && !!declared && row.authorHandle === declared,
    caption: row.caption,
    mediaType: row.mediaType,
    thumbnailUrl: row.thumbnailUrl,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    fetchedAt: row.fetchedAt.toISOString(),
    contentHash: row.contentHash,
    error: row.error,
  };
}

export async function milestoneEvidence(
  db: Db,
  caller: Pick<User, "id" | "email">,
  milestoneId: string,
): Promise<EvidenceJson[]> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  if (!row || (row.deal.brandId !== caller.id && row.deal.creatorId !== caller.id))
    throw notFound("Milestone");
  const rows = await listEvidence(db, milestoneId);
  const creatorId = row.deal.creatorId;
  const declared = new Map<string, string | null>();
  for (const platform of new Set(rows.map((r) => r.platform)))
    declared.set(
      platform,
      creatorId ? ((await findHandle(db, creatorId, platform))?.handle ?? null) : null,
    );
  return rows.map((r) => evidenceJson(r, declared.get(r.platform) ?? null));
}
