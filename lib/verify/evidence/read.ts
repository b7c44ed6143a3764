import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { findHandle } from "@/db/queries/creator-handles";
import { findVisibleMilestone } from "@/db/queries/deals";
import { listEvidence } from "@/db/queries/evidence";
import { type Evidence as EvidenceRow, evidenceStatuses, type User } from "@/db/schema";
import { iso } from "@/lib/api/fields";
import { notFound } from "@/lib/errors";
import { decodeCursor, encodeCursor, type Page, pageQuery, toPage } from "@/lib/pagination";
import { webUrl } from "./urls";

// GET /api/milestones/:id/evidence: what the verifier read for each revision, for the deal's
// parties, with the creator's declared handle on each post's platform so a mismatch shows.

export const evidenceSchema = z
  .object({
    revision: z.number().int().positive(),
    status: z.enum(evidenceStatuses),
    platform: z.string(),
    url: z.string(),
    canonicalUrl: z.string().nullable(),
    authorHandle: z.string().nullable(),
    declaredHandle: z.string().nullable().describe("The creator's declared handle there now"),
    authorMatches: z.boolean(),
    caption: z.string().nullable(),
    mediaType: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    publishedAt: iso.nullable(),
    paidPartnership: z
      .boolean()
      .describe(
        "The platform showed its paid-partnership label on the post (false: not shown, or the platform does not say)",
      ),
    fetchedAt: iso,
    contentHash: z.string(),
    error: z.string().nullable(),
  })
  .meta({ id: "Evidence" });
export const evidenceListResponse = z.object({
  evidence: z.array(evidenceSchema),
  nextCursor: z.string().nullable(),
});
export type EvidenceJson = z.infer<typeof evidenceSchema>;

/** One row as the API shows it. Stored URLs are checked again: rows written before the adapters
 * kept only http(s) URLs may hold a page's `javascript:` og:url or og:image. */
export function evidenceJson(row: EvidenceRow, declared: string | null): EvidenceJson {
  return {
    revision: row.revision,
    status: row.status,
    platform: row.platform,
    url: row.url,
    canonicalUrl: webUrl(row.canonicalUrl),
    authorHandle: row.authorHandle,
    declaredHandle: declared,
    authorMatches: !!row.authorHandle && !!declared && row.authorHandle === declared,
    caption: row.caption,
    mediaType: row.mediaType,
    thumbnailUrl: webUrl(row.thumbnailUrl),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    paidPartnership: row.paidPartnership,
    fetchedAt: row.fetchedAt.toISOString(),
    contentHash: row.contentHash,
    error: row.error,
  };
}

export const evidenceQuery = pageQuery.extend({
  revision: z.coerce.number().int().min(1).optional().describe("Only this revision's evidence"),
});
export type EvidenceQuery = z.infer<typeof evidenceQuery>;

/** The list's name in its cursors: one milestone's cursor is refused by another's list. */
const listOf = (milestoneId: string) => `evidence:${milestoneId}`;

/** A page of a milestone's evidence, newest revision first (the deal's parties only). */
export async function milestoneEvidence(
  db: Db,
  caller: Pick<User, "id" | "email">,
  milestoneId: string,
  q: EvidenceQuery = { limit: 20 },
): Promise<Page<EvidenceJson>> {
  const row = await findVisibleMilestone(db, caller, milestoneId);
  if (!row || (row.deal.brandId !== caller.id && row.deal.creatorId !== caller.id))
    throw notFound("Milestone");
  const before = q.cursor
    ? decodeCursor(listOf(milestoneId), q.cursor, z.number().int().positive())
    : undefined;
  const rows = await listEvidence(db, milestoneId, {
    limit: q.limit + 1,
    beforeRevision: before,
    revision: q.revision,
  });
  const creatorId = row.deal.creatorId;
  const declared = new Map<string, string | null>();
  for (const platform of new Set(rows.map((r) => r.platform)))
    declared.set(
      platform,
      creatorId ? ((await findHandle(db, creatorId, platform))?.handle ?? null) : null,
    );
  return toPage(
    rows,
    q.limit,
    (r) => evidenceJson(r, declared.get(r.platform) ?? null),
    (r) => encodeCursor(listOf(milestoneId), r.revision),
  );
}
