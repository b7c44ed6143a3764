import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { placeholder, reusable } from "@/db/reusable";
import {
  type Deliverable,
  deliverables,
  milestones,
  type Verification,
  verifications,
} from "@/db/schema";

// Verdicts (lib/verify/verify-milestone.ts): one verifications row per deliverable revision,
// and the lease on the milestone row that lets one caller at a time ask the model. Callers
// reach these through a milestone whose access they have checked.

const verificationStatement = reusable((db) =>
  db
    .select()
    .from(verifications)
    .where(
      and(
        eq(verifications.milestoneId, placeholder("milestoneId")),
        eq(verifications.revision, placeholder("revision")),
      ),
    )
    .prepare("find_verification"),
);

/** The verdict on one revision (read on every settle: a `reusable` statement). */
export async function findVerification(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<Verification | undefined> {
  const [row] = await verificationStatement(db, { milestoneId, revision });
  return row;
}

export async function findDeliverable(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
): Promise<Deliverable | undefined> {
  const [row] = await db
    .select()
    .from(deliverables)
    .where(and(eq(deliverables.milestoneId, milestoneId), eq(deliverables.revision, revision)));
  return row;
}

/**
 * Takes the verifier lease of the milestone's revision for `leaseMs` (a conditional update,
 * no transaction): the new owner token when taken, null when someone holds it or the
 * revision moved on.
 */
export async function takeVerifyLease(
  db: DbOrTx,
  milestoneId: string,
  revision: number,
  leaseMs: number,
): Promise<string | null> {
  const [taken] = await db
    .update(milestones)
    .set({
      verifyLeaseExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      verifyLeaseOwner: sql`gen_random_uuid()`,
    })
    .where(
      and(
        eq(milestones.id, milestoneId),
        eq(milestones.revision, revision),
        or(
          isNull(milestones.verifyLeaseExpiresAt),
          lt(milestones.verifyLeaseExpiresAt, sql`now()`),
        ),
      ),
    )
    .returning({ owner: milestones.verifyLeaseOwner });
  return taken?.owner ?? null;
}

/** Ends the verifier lease `owner` holds; a lease taken over since is left to its new holder. */
export async function releaseVerifyLease(
  db: DbOrTx,
  milestoneId: string,
  owner: string,
): Promise<void> {
  await db
    .update(milestones)
    .set({ verifyLeaseExpiresAt: null, verifyLeaseOwner: null })
    .where(and(eq(milestones.id, milestoneId), eq(milestones.verifyLeaseOwner, owner)));
}

/** The milestone's current revision and verifier lease, or undefined when it is gone. */
export async function readVerifyLease(
  db: DbOrTx,
  milestoneId: string,
): Promise<{ revision: number; lease: Date | null } | undefined> {
  const [row] = await db
    .select({ revision: milestones.revision, lease: milestones.verifyLeaseExpiresAt })
    .from(milestones)
    .where(eq(milestones.id, milestoneId));
  return row;
}

/** Stores a verdict unless the revision has one already; true when this call stored it. */
export async function insertVerification(
  db: DbOrTx,
  values: typeof verifications.$inferInsert,
): Promise<boolean> {
  const inserted = await db
    .insert(verifications)
    .values(values)
    .onConflictDoNothing({ target: [verifications.milestoneId, verifications.revision] })
    .returning({ id: verifications.id });
  return inserted.length > 0;
}

/**
 * Gives a verdict stored before records existed its record and hash (only when it has none),
 * and returns the hash stored now, whoever wrote it.
 */
export async function backfillRecordHash(
  db: DbOrTx,
  id: string,
  p: { record: Verification["record"]; recordHash: string },
): Promise<string | null | undefined> {
  await db
    .update(verifications)
    .set({ record: p.record, recordHash: p.recordHash })
    .where(and(eq(verifications.id, id), isNull(verifications.recordHash)));
  const [stored] = await db
    .select({ recordHash: verifications.recordHash })
    .from(verifications)
    .where(eq(verifications.id, id));
  return stored?.recordHash;
}
