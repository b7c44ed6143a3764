import { and, desc, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { type Evidence as EvidenceRow, evidence } from "@/db/schema";

// One evidence row per deliverable revision: the post as it was read for that revision's verdict.

export async function findEvidence(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<EvidenceRow | null> {
  const [row] = await db
    .select()
    .from(evidence)
    .where(and(eq(evidence.milestoneId, milestoneId), eq(evidence.revision, revision)));
  return row ?? null;
}

/** Stores the evidence of a revision unless one is stored already (the first read stands). */
export async function insertEvidence(
  db: DbOrTx,
  values: typeof evidence.$inferInsert,
): Promise<void> {
  await db
    .insert(evidence)
    .values(values)
    .onConflictDoNothing({ target: [evidence.milestoneId, evidence.revision] });
}

/**
 * A page of a milestone's evidence, newest revision first: `limit` rows with revisions below
 * `beforeRevision` (all when omitted), or only `revision` (callers check access first).
 */
export function listEvidence(
  db: DbOrTx,
  milestoneId: string,
  p: { limit: number; beforeRevision?: number; revision?: number },
): Promise<EvidenceRow[]> {
  return db
    .select()
    .from(evidence)
    .where(
      and(
        eq(evidence.milestoneId, milestoneId),
        p.beforeRevision === undefined ? undefined : lt(evidence.revision, p.beforeRevision),
        p.revision === undefined ? undefined : eq(evidence.revision, p.revision),
      ),
    )
    .orderBy(desc(evidence.revision))
    .limit(p.limit);
}
