import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

// The money ledger of one user (lib/ledger): every movement of USDC on their deals, derived
// from the records that already exist — nothing is written for it.
//   funding   deals.funded_at / funding_tx_hash / brand_wallet → escrow (the brand's view)
//   release   a confirmed settlement paying the creator (brand's and creator's view)
//   refund    remainder: the rest of a released milestone, back to the brand (same transaction)
//             cancel | expired: a milestone the escrow refunded (milestones.refund_tx_hash)
//             returned: what a deal's deposit address sent back to its refund address (a
//             deposit to a cancelled or expired deal, an over-payment, a late top-up): the
//             funding.returned events, one per return
//   withdrawal money the user sent out of their embedded wallet (withdrawals), once confirmed
// Every branch filters by the caller: brand_id, or creator_id for what the creator received.

export const ledgerKinds = ["funding", "release", "refund", "withdrawal"] as const;
export type LedgerKind = (typeof ledgerKinds)[number];
export type RefundReason = "remainder" | "cancel" | "expired" | "returned";

export type LedgerRow = {
  id: string;
  kind: LedgerKind;
  reason: RefundReason | null;
  /** Whose side: the deal's brand or creator, or the account itself (withdrawals). */
  role: "brand" | "creator" | "account";
  /** ISO 8601, microseconds, UTC: the keyset position. */
  at: string;
  dealId: string | null;
  dealTitle: string | null;
  milestoneId: string | null;
  milestonePosition: number | null;
  milestoneTitle: string | null;
  amountUnits: bigint;
  fromAddress: string | null;
  toAddress: string | null;
  counterparty: string | null;
  counterpartyName: string | null;
  chainId: number | null;
  txHash: string | null;
  verdictHash: string | null;
};

export type LedgerFilter = {
  userId: string;
  kind?: LedgerKind;
  dealId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** One entry by its id (a receipt). */
  id?: string;
  /** Entries strictly after this position, newest first. */
  after?: { at: string; id: string };
  limit: number;
};

const ESCROW_NAME = "Milestone escrow";

/**
 * Withdrawals: USDC the user sent out of their embedded wallet (POST /api/wallet/withdrawals),
 * counted once its transaction is confirmed. A new kind of money movement gets its branch
 * here, with the same columns and filtered by the owner.
 */
const withdrawals = (userId: string): SQL =>
  sql`select 'withdrawal-' || w.id, 'withdrawal', null, 'account',
        ct.updated_at, null::uuid, null, null::uuid, null::int, null,
        w.amount_units, w.from_address, w.to_address, w.to_address, null,
        w.chain_id, w.tx_hash, null
      from withdrawals w
      join chain_transactions ct on ct.id = w.chain_tx_id
      where w.user_id = ${userId} and ct.status = 'confirmed'`;

/**
 * Where the escrow returns this deal's money: the deposit address's refund address when the
 * deal was funded through one (its funder, brand_wallet, is then the forwarder), else the
 * funding wallet itself.
 */
const refundTo = sql`coalesce((
        select dd.refund_address from deal_deposits dd
        where dd.deal_id = d.id and lower(dd.address) = lower(d.brand_wallet)
        limit 1), d.brand_wallet)`;

function entries(userId: string): SQL {
  const paidAt = sql`coalesce((
        select min(e.created_at) from deal_events e
        where e.deal_id = s.deal_id and e.milestone_id = s.milestone_id
          and e.type in ('paid', 'refunded')), s.updated_at)`;
  const branches: SQL[] = [
    // funding: the brand's wallet into the escrow
    sql`select 'funding-' || d.id as id, 'funding' as kind, null as reason, 'brand' as role,
        d.funded_at as at, d.id as deal_id, d.title as deal_title,
        null::uuid as milestone_id, null::int as milestone_position, null as milestone_title,
        d.budget_units as amount_units, d.brand_wallet as from_address,
        d.escrow_address as to_address, d.escrow_address as counterparty,
        ${ESCROW_NAME}::text as counterparty_name, d.escrow_chain_id as chain_id,
        d.funding_tx_hash as tx_hash, null as verdict_hash
      from deals d
      where d.brand_id = ${userId} and d.funded_at is not null`,
    // release: the escrow pays the creator (the brand paid; the creator received)
    sql`select 'release-' || s.id, 'release', null,
        case when d.brand_id = ${userId} then 'brand' else 'creator' end,
        ${paidAt}, d.id, d.title, m.id, m.position, m.title,
        s.amount_units, d.escrow_address, s.recipient,
        case when d.brand_id = ${userId} then s.recipient else d.brand_wallet end,
        case when d.brand_id = ${userId} then coalesce(c.display_name, c.email)
             else coalesce(b.display_name, b.email) end,
        s.chain_id, s.tx_hash, s.verdict_hash
      from settlements s
      join deals d on d.id = s.deal_id
      join milestones m on m.id = s.milestone_id
      join users b on b.id = d.brand_id
      left join users c on c.id = d.creator_id
      where (d.brand_id = ${userId} or d.creator_id = ${userId})
        and s.status = 'confirmed' and s.amount_units > 0`,
    // refund (remainder): the rest of a released milestone back to the brand, same transaction
    sql`select 'remainder-' || s.id, 'refund', 'remainder', 'brand',
        ${paidAt}, d.id, d.title, m.id, m.position, m.title,
        s.refund_units, d.escrow_address, ${refundTo}, d.escrow_address, ${ESCROW_NAME}::text,
        s.chain_id, s.tx_hash, s.verdict_hash
      from settlements s
      join deals d on d.id = s.deal_id
      join milestones m on m.id = s.milestone_id
      where d.brand_id = ${userId} and s.status = 'confirmed' and s.refund_units > 0`,
    // refund (cancel | expired): a milestone the escrow returned whole
    sql`select 'refund-' || m.id, 'refund',
        case when d.status = 'cancelled' then 'cancel' else 'expired' end, 'brand',
        coalesce((select min(e.created_at) from deal_events e
                  where e.deal_id = d.id and e.milestone_id = m.id and e.type = 'refunded'),
                 m.updated_at),
        d.id, d.title, m.id, m.position, m.title,
        m.amount_units, d.escrow_address, ${refundTo}, d.escrow_address, ${ESCROW_NAME}::text,
        d.escrow_chain_id, m.refund_tx_hash, null
      from milestones m
      join deals d on d.id = m.deal_id
      where d.brand_id = ${userId} and d.funded_at is not null and m.status = 'refunded'
        and not exists (select 1 from settlements s
                        where s.milestone_id = m.id and s.status = 'confirmed')`,
    // refund (returned): a deposit address gave back what it held (funding.returned; the
    // event's amount is a 6-decimal USDC string)
    sql`select 'returned-' || e.id, 'refund', 'returned', 'brand', e.created_at,
        d.id, d.title, null::uuid, null::int, null,
        round((e.data->>'amount')::numeric * 1000000)::bigint,
        e.data->>'depositAddress', e.data->>'to', e.data->>'depositAddress',
        'Deposit address'::text,
        (select dd.chain_id from deal_deposits dd
          where dd.deal_id = d.id and lower(dd.address) = lower(e.data->>'depositAddress')
          limit 1),
        e.data->>'txHash', null
      from deal_events e
      join deals d on d.id = e.deal_id
      where d.brand_id = ${userId} and e.type = 'funding.returned'`,
  ];
  branches.push(withdrawals(userId));
  return sql.join(branches, sql` union all `);
}

type RawRow = Record<string, unknown>;

function rowsOf(result: unknown): RawRow[] {
  if (Array.isArray(result)) return result as RawRow[];
  return ((result as { rows?: RawRow[] }).rows ?? []) as RawRow[];
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** The caller's ledger entries, newest first (keyset: `after`), at most `limit`. */
export async function listLedgerRows(db: DbOrTx, f: LedgerFilter): Promise<LedgerRow[]> {
  const where: SQL[] = [sql`true`];
  if (f.kind) where.push(sql`x.kind = ${f.kind}`);
  // A bonus is its own escrow deal (deals.parent_deal_id): its entries belong to the deal it
  // rewards, where both parties can open it and where a filter by that deal finds them.
  if (f.dealId) where.push(sql`coalesce(xd.parent_deal_id, x.deal_id) = ${f.dealId}`);
  if (f.id) where.push(sql`x.id = ${f.id}`);
  if (f.from) where.push(sql`x.at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) where.push(sql`x.at < ${f.to.toISOString()}::timestamptz`);
  if (f.after) where.push(sql`(x.at, x.id) < (${f.after.at}::timestamptz, ${f.after.id}::text)`);
  const result = await db.execute(sql`
    select x.id, x.kind, x.reason, x.role,
      to_char(x.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
      coalesce(xd.parent_deal_id, x.deal_id)::text as deal_id, x.deal_title, x.milestone_id::text as milestone_id,
      x.milestone_position, x.milestone_title, x.amount_units::text as amount_units,
      x.from_address, x.to_address, x.counterparty, x.counterparty_name, x.chain_id,
      x.tx_hash, x.verdict_hash
    from (${entries(f.userId)}) as x
    left join deals xd on xd.id = x.deal_id
    where ${sql.join(where, sql` and `)}
    order by x.at desc, x.id desc
    limit ${f.limit}`);
  return rowsOf(result).map((r) => ({
    id: String(r.id),
    kind: r.kind as LedgerKind,
    reason: (r.reason ?? null) as RefundReason | null,
    role: r.role as LedgerRow["role"],
    at: String(r.at),
    dealId: str(r.deal_id),
    dealTitle: str(r.deal_title),
    milestoneId: str(r.milestone_id),
    milestonePosition: r.milestone_position === null ? null : Number(r.milestone_position),
    milestoneTitle: str(r.milestone_title),
    amountUnits: BigInt(String(r.amount_units)),
    fromAddress: str(r.from_address),
    toAddress: str(r.to_address),
    counterparty: str(r.counterparty),
    counterpartyName: str(r.counterparty_name),
    chainId: r.chain_id === null ? null : Number(r.chain_id),
    txHash: str(r.tx_hash),
    verdictHash: str(r.verdict_hash),
  }));
}
