import { and, asc, eq } from "drizzle-orm";
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

/** Every revision's evidence of a milestone, oldest first (callers check access to the milestone). */
export function listEvidence(db: DbOrTx, milestoneId: string): Promise<EvidenceRow[]> {
  return db
    .select()
    .from(evidence)
    .where(eq(evidence.milestoneId, milestoneId))
    .orderBy(asc(evidence.revision));
}
