import { and, eq, gt, inArray, isNull, lt, ne, notExists, notInArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { nowIso, placeholder as p, reusable, setTo, timestampAt } from "@/db/reusable";
import {
  type Deal,
  deals,
  type Milestone,
  milestones,
  type ReleaseAuthorization,
  type Settlement,
  settlements,
} from "@/db/schema";

// The settlement's writes (lib/settle/settle.ts claims one, lib/settle/advance.ts moves it
// to paid): the statements on the payment path are `reusable` (built once per process),
// the rest are plain queries.

/** A lease that ends `seconds` from the database's now. */
const leaseFor = (seconds: unknown) => sql`now() + make_interval(secs => ${seconds})`;

const committedStatement = reusable((db) =>
  db
    .select({ total: sql<string>`coalesce(sum(${settlements.amountUnits}), 0)::text` })
    .from(settlements)
    .where(eq(settlements.dealId, p("dealId")))
    .prepare("deal_committed"),
);

/** What the deal's settlements pay out in total, in base units. */
export async function committedUnits(tx: DbOrTx, dealId: string): Promise<bigint> {
  const [row] = await committedStatement(tx, { dealId });
  return BigInt(row?.total ?? "0");
}

const insertSettlementStatement = reusable((db) =>
  db
    .insert(settlements)
    .values({
      milestoneId: p("milestoneId"),
      dealId: p("dealId"),
      via: p("via"),
      chainId: p("chainId"),
      recipient: p("recipient"),
      amountUnits: p("amountUnits"),
      refundUnits: p("refundUnits"),
      verdictHash: p("verdictHash"),
      scoreBps: p("scoreBps"),
      revision: p("revision"),
      status: "pending",
      leaseExpiresAt: leaseFor(p("leaseSeconds")),
      leaseOwner: sql`gen_random_uuid()`,
    })
    .returning()
    .prepare("insert_settlement"),
);

export type NewClaim = Pick<
  typeof settlements.$inferInsert,
  | "milestoneId"
  | "dealId"
  | "via"
  | "chainId"
  | "recipient"
  | "amountUnits"
  | "refundUnits"
  | "verdictHash"
  | "scoreBps"
  | "revision"
>;

/** A new settlement, `pending`, leased to its creator for `leaseSeconds`. */
export async function insertSettlement(
  tx: DbOrTx,
  s: NewClaim,
  leaseSeconds: number,
): Promise<Settlement | undefined> {
  const [row] = await insertSettlementStatement(tx, { ...s, leaseSeconds });
  return row;
}

const approveStatement = reusable((db) =>
  db
    .update(milestones)
    .set({ status: "approved", updatedAt: timestampAt("now") })
    .where(
      and(
        eq(milestones.id, p("id")),
        inArray(milestones.status, ["pending", "submitted", "rejected"]),
      ),
    )
    .prepare("approve_milestone"),
);

/** The milestone is being paid: approved, from any state before that. */
export async function approveMilestone(tx: DbOrTx, id: string): Promise<void> {
  await approveStatement(tx, { id, now: nowIso() });
}

const confirmStatement = reusable((db) =>
  db
    .update(settlements)
    .set({
      status: "confirmed",
      txHash: setTo("txHash"),
      logIndex: setTo("logIndex"),
      error: null,
      // Nothing is left to do on it: the lease goes with the payment.
      leaseExpiresAt: null,
      leaseOwner: null,
      updatedAt: timestampAt("now"),
    })
    .where(eq(settlements.id, p("id")))
    .returning()
    .prepare("confirm_settlement"),
);

/**
 * The settlement is paid by `txHash`, whose receipt's log `logIndex` is its Released event
 * (null when the release was not read from a receipt).
 */
export async function confirmSettlement(
  tx: DbOrTx,
  id: string,
  txHash: string | null,
  logIndex: number | null,
): Promise<Settlement | undefined> {
  const [row] = await confirmStatement(tx, { id, txHash, logIndex, now: nowIso() });
  return row;
}

const settleMilestoneStatement = reusable((db) =>
  db
    .update(milestones)
    .set({ status: setTo("status"), updatedAt: timestampAt("now") })
    .where(and(eq(milestones.id, p("id")), eq(milestones.status, "approved")))
    .returning({ id: milestones.id })
    .prepare("milestone_settled"),
);

/** An approved milestone is paid (or refunded, by a zero payout); false if it was not approved. */
export async function markMilestoneSettled(
  tx: DbOrTx,
  id: string,
  status: "paid" | "refunded",
): Promise<boolean> {
  return (await settleMilestoneStatement(tx, { id, status, now: nowIso() })).length > 0;
}

const completeStatement = reusable((db) =>
  db
    .update(deals)
    .set({ status: "completed", updatedAt: timestampAt("now") })
    .where(
      and(
        eq(deals.id, p("dealId")),
        eq(deals.status, "active"),
        notExists(
          db
            .select({ one: sql`1` })
            .from(milestones)
            .where(
              and(
                eq(milestones.dealId, p("dealId")),
                notInArray(milestones.status, ["paid", "refunded"]),
              ),
            ),
        ),
      ),
    )
    .returning({ id: deals.id })
    .prepare("complete_deal"),
);

/** The deal is completed once none of its milestones is left unpaid; false if not (yet). */
export async function completeDealIfDone(tx: DbOrTx, dealId: string): Promise<boolean> {
  return (await completeStatement(tx, { dealId, now: nowIso() })).length > 0;
}

export async function findSettlement(db: DbOrTx, id: string): Promise<Settlement | undefined> {
  const [row] = await db.select().from(settlements).where(eq(settlements.id, id));
  return row;
}

/**
 * Takes the lease on a settlement for `seconds` under a new owner token (the row's
 * leaseOwner), or returns null when someone else holds it.
 */
export async function takeSettlementLease(
  db: DbOrTx,
  id: string,
  seconds: number,
): Promise<Settlement | null> {
  const [row] = await db
    .update(settlements)
    .set({ leaseExpiresAt: leaseFor(seconds), leaseOwner: sql`gen_random_uuid()` })
    .where(
      and(
        eq(settlements.id, id),
        or(isNull(settlements.leaseExpiresAt), lt(settlements.leaseExpiresAt, sql`now()`)),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Ends the lease `owner` holds. A caller whose lease ran out (and was taken over) releases
 * nothing: the new holder keeps it.
 */
export async function releaseSettlementLease(
  db: DbOrTx,
  id: string,
  owner: string | null,
): Promise<void> {
  if (!owner) return;
  await db
    .update(settlements)
    .set({ leaseExpiresAt: null, leaseOwner: null })
    .where(and(eq(settlements.id, id), eq(settlements.leaseOwner, owner)));
}

/** Records a settlement's failure; a confirmed one (paid meanwhile, by anyone) stays paid. */
export async function markSettlementFailed(db: DbOrTx, id: string, error: string): Promise<void> {
  await db
    .update(settlements)
    .set({ status: "failed", error, updatedAt: new Date() })
    .where(and(eq(settlements.id, id), ne(settlements.status, "confirmed")));
}

/**
 * A settlement whose batch did not release its milestone goes back to `pending` (keeping its
 * link to the batch, so it is not taken for untouched) with the reason: whoever advances it
 * next — this caller now, or reconcile, which lists pending rows — asks the escrow and sends a
 * release of its own. A confirmed one stays paid.
 */
export async function returnSettlementToPending(
  db: DbOrTx,
  id: string,
  error: string,
): Promise<void> {
  await db
    .update(settlements)
    .set({ status: "pending", error, updatedAt: new Date() })
    .where(and(eq(settlements.id, id), ne(settlements.status, "confirmed")));
}

/**
 * Just before a batch is recorded: renews the lease on those of `ids` this caller still holds
 * (its owner tokens, unexpired on the database's clock) and that are still `pending` with
 * nothing sent, for `seconds`; returns their ids. A claim whose lease ran out while the rest
 * of the bulk was being verified may have been taken over (and paid) by reconcile or a
 * single settle: it is left out of the batch.
 */
export async function renewBatchLeases(
  db: DbOrTx,
  held: ReadonlyArray<{ id: string; owner: string | null }>,
  seconds: number,
): Promise<Set<string>> {
  const owners = held.flatMap((h) => (h.owner ? [h.owner] : []));
  if (owners.length === 0) return new Set();
  const rows = await db
    .update(settlements)
    .set({ leaseExpiresAt: leaseFor(seconds) })
    .where(
      and(
        inArray(
          settlements.id,
          held.map((h) => h.id),
        ),
        inArray(settlements.leaseOwner, owners),
        gt(settlements.leaseExpiresAt, sql`now()`),
        eq(settlements.status, "pending"),
        isNull(settlements.chainTxId),
      ),
    )
    .returning({ id: settlements.id });
  return new Set(rows.map((r) => r.id));
}

/** The relayed release's current signature. */
export async function storeRelayAuthorization(
  db: DbOrTx,
  id: string,
  auth: ReleaseAuthorization,
): Promise<void> {
  await db
    .update(settlements)
    .set({ relayAuthorization: auth, updatedAt: new Date() })
    .where(eq(settlements.id, id));
}

/** An external relayer took the release: its task id, and the settlement is submitted. */
export async function storeRelayTask(db: DbOrTx, id: string, taskId: string): Promise<void> {
  await db
    .update(settlements)
    .set({ relayTaskId: taskId, status: "submitted", error: null, updatedAt: new Date() })
    .where(eq(settlements.id, id));
}

/** A settlement's deal and milestone. */
export async function findReleaseTarget(
  db: DbOrTx,
  milestoneId: string,
): Promise<{ deal: Deal; milestone: Milestone } | undefined> {
  const [row] = await db
    .select({ deal: deals, milestone: milestones })
    .from(milestones)
    .innerJoin(deals, eq(milestones.dealId, deals.id))
    .where(eq(milestones.id, milestoneId));
  return row;
}
