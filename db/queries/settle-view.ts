import { and, eq, exists, getTableColumns, getTableName, ne, sql } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db/client";
import { isNotNullViolation } from "@/db/errors";
import { type NewTransaction, recordTransactionInsert } from "@/db/queries/chain-transactions";
import { visibleTo } from "@/db/queries/deals";
import { nowIso, placeholder as p, reusable, setTo, timestampAt } from "@/db/reusable";
import {
  appeals,
  type ChainTransaction,
  chainTransactions,
  changeRequests,
  deals,
  decisions,
  deliverables,
  milestones,
  settlements,
  users,
  verifications,
} from "@/db/schema";

// The settle path's reads (lib/settle/settle.ts): what it starts from, in one statement,
// and the milestone's view for its response, in one statement too;
// and the link of a settlement to its recorded release (lib/settle/payment.ts).

type Viewer = Parameters<typeof visibleTo>[0];

// These run on every settle: `reusable` statements (built once per process, see
// db/reusable.ts), with placeholders where the values go.
/** visibleTo's condition with the viewer's id and e-mail as placeholders. */
const anyViewer = { id: p("viewerId"), email: p("viewerEmail") } as unknown as Viewer;

const settleStartStatement = reusable((db) =>
  db
    .select({
      milestone: milestones,
      deal: deals,
      settlement: settlements,
      decision: decisions,
      verification: verifications,
    })
    .from(milestones)
    .innerJoin(deals, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .leftJoin(
      decisions,
      and(eq(decisions.milestoneId, milestones.id), eq(decisions.revision, milestones.revision)),
    )
    .leftJoin(
      verifications,
      and(
        eq(verifications.milestoneId, milestones.id),
        eq(verifications.revision, milestones.revision),
      ),
    )
    .where(and(eq(milestones.id, p("milestoneId")), visibleTo(anyViewer)))
    .prepare("settle_start"),
);

/**
 * A table's rows read back from a `jsonb` array of them (`to_jsonb(row)` each, keyed by
 * column name), decoded as drizzle decodes the driver's values, column by column: the same
 * objects a plain select of the table gives. For tables without bigint columns (a JSON
 * number would round them).
 */
function rowsOf<T extends AnyPgTable>(table: T, json: unknown): T["$inferSelect"][] {
  const list = (typeof json === "string" ? JSON.parse(json) : json) as Array<
    Record<string, unknown>
  >;
  const columns = Object.entries(getTableColumns(table));
  return list.map((obj) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = obj[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  });
}

/**
 * A column named with its table: drizzle leaves a single-table select's columns unqualified,
 * which the subqueries below (several tables with an `id`) cannot have.
 */
const q = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** A milestone's rows of one table, as a jsonb array ordered by `orderBy` (if any). */
const historyOf = <T extends AnyPgTable & { milestoneId: AnyPgColumn }>(
  table: T,
  orderBy?: AnyPgColumn,
) =>
  sql`(select coalesce(jsonb_agg(to_jsonb(${table})${orderBy ? sql` order by ${q(orderBy)}` : sql``}), '[]'::jsonb) from ${table} where ${q(table.milestoneId)} = ${q(milestones.id)})`.mapWith(
    (json) => rowsOf(table, json),
  );

/**
 * A milestone's history beside its row, in the same statement: every deliverable and verdict
 * by revision, its appeals, its decisions with the decider's name and the brand's change
 * requests (one aggregated subquery each).
 */
const history = () => ({
  deliverables: historyOf(deliverables, deliverables.revision),
  verifications: historyOf(verifications, verifications.revision),
  appeals: historyOf(appeals),
  decisions:
    sql`(select coalesce(jsonb_agg(jsonb_build_object('decision', to_jsonb(${decisions}), 'name', ${q(users.displayName)})), '[]'::jsonb) from ${decisions} inner join ${users} on ${q(users.id)} = ${q(decisions.deciderId)} where ${q(decisions.milestoneId)} = ${q(milestones.id)})`.mapWith(
      (json) => {
        const list = (typeof json === "string" ? JSON.parse(json) : json) as Array<{
          decision: unknown;
          name: string;
        }>;
        const rows = rowsOf(
          decisions,
          list.map((d) => d.decision),
        );
        return rows.map((decision, i) => ({ decision, name: (list[i] as { name: string }).name }));
      },
    ),
  changeRequests: historyOf(changeRequests, changeRequests.revision),
});

const viewStatement = reusable((db) =>
  db
    .select({ milestone: milestones, ...history() })
    .from(milestones)
    .where(eq(milestones.id, p("id")))
    .prepare("milestone_view"),
);

const visibleViewStatement = reusable((db) =>
  db
    .select({ milestone: milestones, deal: deals, settlement: settlements, ...history() })
    .from(milestones)
    .innerJoin(deals, eq(milestones.dealId, deals.id))
    .leftJoin(settlements, eq(settlements.milestoneId, milestones.id))
    .where(and(eq(milestones.id, p("milestoneId")), visibleTo(anyViewer)))
    .prepare("visible_milestone_view"),
);

/**
 * A milestone the viewer may see, its deal, its settlement (null: none yet), the brand's
 * decision and the stored verdict on its current revision (null: none). One statement:
 * unique settlement per milestone, unique decision and verdict per milestone revision.
 */
export async function findSettleStart(db: DbOrTx, viewer: Viewer, milestoneId: string) {
  const [row] = await settleStartStatement(db, {
    milestoneId,
    viewerId: viewer.id,
    viewerEmail: viewer.email,
  });
  return row;
}

/**
 * One milestone (already known to be visible to the caller) with its history: every
 * deliverable and verdict by revision, its appeals, its decisions with the decider's
 * name and the brand's change requests. One statement.
 */
export async function loadMilestoneView(db: DbOrTx, milestoneId: string) {
  const [row] = await viewStatement(db, { id: milestoneId });
  return row;
}

/**
 * A milestone the viewer may see, with its deal, its settlement (null: none yet) and its
 * history as loadMilestoneView reads it; undefined when it is not visible. One statement.
 */
export async function loadVisibleMilestoneView(db: DbOrTx, viewer: Viewer, milestoneId: string) {
  const [row] = await visibleViewStatement(db, {
    milestoneId,
    viewerId: viewer.id,
    viewerEmail: viewer.email,
  });
  return row;
}

const linkStatement = reusable((db) =>
  db
    .update(settlements)
    .set({
      chainTxId: sql`${p("chainTxId")}::uuid`,
      txHash: setTo("txHash"),
      status: "submitted",
      error: null,
      updatedAt: timestampAt("now"),
    })
    .where(
      and(
        eq(settlements.id, p("settlementId")),
        // A payment already confirmed (by whichever transaction) is never linked to another.
        ne(settlements.status, "confirmed"),
        exists(
          db
            .select({ id: chainTransactions.id })
            .from(chainTransactions)
            .where(eq(chainTransactions.id, p("chainTxId"))),
        ),
      ),
    )
    .returning({ id: settlements.id })
    .prepare("link_settlement"),
);

/**
 * Links a settlement to the chain transaction recorded for its release, in the transaction
 * that records it: `submitted`, with the transaction's hash. Sent together with that row's
 * insert, so it applies only if the row exists by then (the insert may have done nothing).
 */
export async function linkSettlement(
  tx: DbOrTx,
  settlementId: string,
  row: { id: string; hash: string | null },
): Promise<boolean> {
  const linked = await linkStatement(tx, {
    settlementId,
    chainTxId: row.id,
    txHash: row.hash,
    now: nowIso(),
  });
  return linked.length > 0;
}

const recordLinkedStatement = reusable((db) => {
  // The settlement, locked, unless it is confirmed already (a payment confirmed by whichever
  // transaction is never linked to another, as linkSettlement).
  const held = db.$with("held").as(
    db
      .select({ id: settlements.id })
      .from(settlements)
      .where(and(eq(settlements.id, p("settlementId")), ne(settlements.status, "confirmed")))
      .for("update"),
  );
  // Its id is the row's only while the settlement is held: otherwise null, which the
  // primary key refuses (a not-null violation), failing the whole statement: nothing is
  // recorded that could not be linked.
  const recorded = db
    .$with("recorded")
    .as(recordTransactionInsert(db, sql`(select ${p("id")}::uuid from ${held})`));
  // The inserted row is not visible to the other parts of the statement as a table row: the
  // link names it through `recorded` (nothing to link when the insert did nothing).
  const linked = db.$with("linked").as(
    db
      .update(settlements)
      .set({
        chainTxId: sql`${recorded.id}`,
        txHash: sql`${recorded.hash}`,
        status: "submitted",
        error: null,
        updatedAt: timestampAt("now"),
      })
      .from(recorded)
      .where(eq(settlements.id, p("settlementId")))
      .returning({ id: settlements.id }),
  );
  return db
    .with(held, recorded, linked)
    .select()
    .from(recorded)
    .leftJoin(linked, sql`true`)
    .prepare("record_linked_transaction");
});

/**
 * Records a settlement's signed release (insertTransaction) and links the settlement to it
 * (as linkSettlement does) in one statement, atomic on its own: no transaction around it.
 * Undefined (nothing written) when a live row of the signer holds its nonce. Throws, with
 * nothing written, when the settlement is confirmed already (or gone).
 */
export async function recordLinkedTransaction(
  db: DbOrTx,
  settlementId: string,
  row: NewTransaction,
): Promise<{ recorded: ChainTransaction; linked: boolean } | undefined> {
  let out: { recorded: ChainTransaction; linked: { id: string } | null } | undefined;
  try {
    [out] = await recordLinkedStatement(db, { ...row, settlementId, now: nowIso() });
  } catch (err) {
    if (isNotNullViolation(err))
      throw new Error(`settlement ${settlementId} is confirmed already: its release not recorded`, {
        cause: err,
      });
    throw err;
  }
  return out && { recorded: out.recorded, linked: out.linked !== null };
}
