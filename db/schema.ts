import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

// snake_case in SQL, camelCase in TS. Money is bigint USDC base units (6 decimals).
// Scores are integer basis points (0..10000). The unique indexes below are what make
// the contract's "exactly once" rules hold under concurrency.

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const units = (name: string) => bigint(name, { mode: "bigint" });

export const profileTypes = ["creator", "organization"] as const;
export type ProfileType = (typeof profileTypes)[number];

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    email: text("email").notNull(),
    profileType: text("profile_type").$type<ProfileType>().notNull().default("creator"),
    /** EIP-55 checksummed; only set once proven (signature or identity token). */
    walletAddress: text("wallet_address"),
    walletSource: text("wallet_source").$type<"signature" | "identity_token">(),
    /** Embedded in every session token; sign-out increments it, revoking them all. */
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_issuer_subject_key").on(t.issuer, t.subject),
    uniqueIndex("users_wallet_address_key").on(sql`lower(${t.walletAddress})`),
    check("users_profile_type_check", sql`${t.profileType} in ('creator', 'organization')`),
  ],
);

/** Server-issued nonces for wallet-linking messages (SIWE-style); each is used once. */
export const walletNonces = pgTable("wallet_nonces", {
  nonce: text("nonce").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * `unfunded` until the escrow holds the budget; `open` = funded, nobody has taken it;
 * `active` = a creator took it (assigned on-chain); `expired` = past its deadline and grace
 * with money returned to the brand.
 */
export const dealStatuses = [
  "unfunded",
  "open",
  "active",
  "completed",
  "cancelled",
  "expired",
] as const;
export type DealStatus = (typeof dealStatuses)[number];

export const deals = pgTable(
  "deals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    brandId: uuid("brand_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    creatorId: uuid("creator_id").references(() => users.id, { onDelete: "set null" }),
    /** When set, only the creator with this e-mail may accept the deal. */
    inviteEmail: text("invite_email"),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    platform: text("platform").notNull().default("other"),
    status: text("status").$type<DealStatus>().notNull().default("unfunded"),
    minScoreBps: integer("min_score_bps").notNull().default(5000),
    budgetUnits: units("budget_units").notNull(),
    /** Set on the demo starter deals; unique per brand so seeding is idempotent in the database. */
    starterKey: text("starter_key"),
    /**
     * The escrow's deadline: unreleased milestones become refundable to the brand after it
     * plus the contract's grace period. Fixed into the escrow when the deal is funded.
     */
    deadlineAt: timestamp("deadline_at", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '30 days'`),
    // Read from the chain, never from a caller: set when the escrow's deal is verified.
    escrowChainId: integer("escrow_chain_id"),
    escrowAddress: text("escrow_address"),
    /** Who funded the escrow: refunds go to this address. */
    brandWallet: text("brand_wallet"),
    fundingTxHash: text("funding_tx_hash"),
    /** The block of the funding: where log scans for this deal's escrow events start. */
    fundedBlock: units("funded_block"),
    fundedAt: timestamp("funded_at", { withTimezone: true }),
    /** The creator's payout address as recorded on-chain when they took the deal. */
    creatorWallet: text("creator_wallet"),
    /** The evaluator's assignCreator transaction (see lib/escrow). */
    assignTxId: uuid("assign_tx_id").references(() => chainTransactions.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("deals_brand_id_idx").on(t.brandId),
    index("deals_creator_id_idx").on(t.creatorId),
    uniqueIndex("deals_brand_starter_key").on(t.brandId, t.starterKey),
    check(
      "deals_status_check",
      sql`${t.status} in ('unfunded', 'open', 'active', 'completed', 'cancelled', 'expired')`,
    ),
    check("deals_budget_check", sql`${t.budgetUnits} > 0`),
    check("deals_min_score_check", sql`${t.minScoreBps} between 0 and 10000`),
  ],
);

export type Requirements = {
  hashtags: string[];
  mentions: string[];
  links: string[];
  criteria: string[];
};

/** `refunded`: its locked money went back to the brand (cancelled or expired deal). */
export const milestoneStatuses = [
  "pending",
  "submitted",
  "approved",
  "paid",
  "rejected",
  "refunded",
] as const;
export type MilestoneStatus = (typeof milestoneStatuses)[number];

export const milestones = pgTable(
  "milestones",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    amountUnits: units("amount_units").notNull(),
    requirements: jsonb("requirements").$type<Requirements>().notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }),
    /** The escrow refund of this milestone (cancel or expiry), once confirmed on-chain. */
    refundTxHash: text("refund_tx_hash"),
    status: text("status").$type<MilestoneStatus>().notNull().default("pending"),
    /** The latest deliverable revision (0 = nothing submitted). */
    revision: integer("revision").notNull().default(0),
    /**
     * Held by the one caller running the verifier on the current revision, so concurrent
     * first calls make one model call without a transaction held across it.
     */
    verifyLeaseExpiresAt: timestamp("verify_lease_expires_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("milestones_deal_position_key").on(t.dealId, t.position),
    check("milestones_amount_check", sql`${t.amountUnits} > 0`),
    check(
      "milestones_status_check",
      sql`${t.status} in ('pending', 'submitted', 'approved', 'paid', 'rejected', 'refunded')`,
    ),
  ],
);

export const deliverables = pgTable(
  "deliverables",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    url: text("url").notNull(),
    text: text("text").notNull().default(""),
    note: text("note").notNull().default(""),
    submittedBy: uuid("submitted_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deliverables_milestone_revision_key").on(t.milestoneId, t.revision)],
);

export type VerdictSource = "model" | "rubric" | "brand_decision";

/** One verifier call per deliverable revision: the unique key stops re-rolling the model. */
export const verifications = pgTable(
  "verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    approved: boolean("approved").notNull(),
    scoreBps: integer("score_bps").notNull(),
    reasoning: text("reasoning").notNull(),
    missing: jsonb("missing").$type<string[]>().notNull(),
    model: text("model").notNull(),
    source: text("source").$type<VerdictSource>().notNull().default("model"),
    /**
     * The verdict record, canonically serialised (see lib/verify/record.ts), and its
     * keccak256: the hash an escrow release carries on-chain.
     */
    record: text("record"),
    recordHash: text("record_hash"),
    latencyMs: integer("latency_ms").notNull(),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("verifications_milestone_revision_key").on(t.milestoneId, t.revision),
    check("verifications_score_check", sql`${t.scoreBps} between 0 and 10000`),
  ],
);

export const txStatuses = ["pending", "submitted", "confirmed", "failed"] as const;
export type TxStatus = (typeof txStatuses)[number];

/**
 * Every transaction the service signs, recorded before it is broadcast. The nonce is
 * allocated under a Postgres advisory lock; the unique key makes a collision impossible.
 */
export const chainTransactions = pgTable(
  "chain_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chainId: integer("chain_id").notNull(),
    fromAddress: text("from_address").notNull(),
    nonce: integer("nonce").notNull(),
    toAddress: text("to_address").notNull(),
    data: text("data").notNull(),
    valueWei: units("value_wei").notNull().default(sql`0`),
    /** The signed raw transaction, so a resume re-broadcasts the same bytes. */
    rawTx: text("raw_tx"),
    hash: text("hash"),
    purpose: text("purpose").notNull(),
    status: text("status").$type<TxStatus>().notNull().default("pending"),
    error: text("error"),
    blockNumber: units("block_number"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Partial: a transaction the node refused outright never used its nonce, which is
    // then free to be allocated again.
    uniqueIndex("chain_transactions_sender_nonce_key")
      .on(t.chainId, t.fromAddress, t.nonce)
      .where(sql`${t.status} <> 'failed' or ${t.blockNumber} is not null`),
    index("chain_transactions_status_idx").on(t.status),
    // findLatestByPurpose (reputation records, faucet resumes): without it the lookup
    // scanned the whole log (45 ms at 100k rows).
    index("chain_transactions_purpose_idx").on(t.chainId, t.purpose, t.createdAt),
  ],
);

/** The evaluator's EIP-712 signature of a release, which a relayer submits (releaseWithSig). */
export type ReleaseAuthorization = { deadline: string; signature: string };

export const settlementVias = ["direct", "relay"] as const;
export type SettlementVia = (typeof settlementVias)[number];

/** At most one settlement per milestone: the unique key is the "pay exactly once" rule. */
export const settlements = pgTable(
  "settlements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    via: text("via").$type<SettlementVia>().notNull(),
    chainId: integer("chain_id").notNull(),
    recipient: text("recipient").notNull(),
    /** Paid to the creator. */
    amountUnits: units("amount_units").notNull(),
    /** The rest of the milestone, returned to the brand by the same release. */
    refundUnits: units("refund_units").notNull().default(sql`0`),
    /** The verdict record's hash the release carries on-chain. */
    verdictHash: text("verdict_hash"),
    scoreBps: integer("score_bps").notNull(),
    revision: integer("revision").notNull(),
    status: text("status").$type<TxStatus>().notNull().default("pending"),
    txHash: text("tx_hash"),
    chainTxId: uuid("chain_tx_id").references(() => chainTransactions.id),
    /**
     * A relayed release's signature. The escrow releases a milestone at most once, so a
     * renewed signature (after this one's deadline) can never pay twice.
     */
    relayAuthorization: jsonb("relay_authorization").$type<ReleaseAuthorization>(),
    relayTaskId: text("relay_task_id"),
    /** Whoever advances the settlement holds this lease; others get settlement_in_progress. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    reputationTxHash: text("reputation_tx_hash"),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("settlements_milestone_key").on(t.milestoneId),
    index("settlements_deal_idx").on(t.dealId),
    index("settlements_status_idx").on(t.status),
    check("settlements_amount_check", sql`${t.amountUnits} >= 0`),
  ],
);

/** One drip per address and one per user on each chain. */
export const faucetDrips = pgTable(
  "faucet_drips",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chainId: integer("chain_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    amountUnits: units("amount_units").notNull(),
    status: text("status").$type<TxStatus>().notNull().default("pending"),
    txHash: text("tx_hash"),
    chainTxId: uuid("chain_tx_id").references(() => chainTransactions.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("faucet_drips_chain_address_key").on(t.chainId, sql`lower(${t.address})`),
    uniqueIndex("faucet_drips_chain_user_key").on(t.chainId, t.userId),
  ],
);

export const dealEventTypes = [
  "created",
  "funded",
  "taken",
  "submitted",
  "verified",
  "rejected",
  "approved",
  "paid",
  "refunded",
  "cancelled",
  "expired",
  "completed",
] as const;
export type DealEventType = (typeof dealEventTypes)[number];

/**
 * The activity log: one append-only row per state change of a deal or its milestones,
 * written in the same transaction as the change (lib/events). The single source for the
 * timeline, notifications and webhooks. `seq` orders it and is the pagination cursor.
 */
export const dealEvents = pgTable(
  "deal_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    milestoneId: uuid("milestone_id").references(() => milestones.id, { onDelete: "cascade" }),
    type: text("type").$type<DealEventType>().notNull(),
    /** The user who caused it; null for the service itself (reconcile, the chain watcher). */
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deal_events_seq_key").on(t.seq),
    index("deal_events_deal_seq_idx").on(t.dealId, t.seq),
  ],
);

/** A retried request with the same Idempotency-Key gets the first response back. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    route: text("route").notNull(),
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code"),
    response: jsonb("response"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Fixed-window counters shared by every process (e.g. demo-unlock failures per client). */
export const rateLimits = pgTable(
  "rate_limits",
  {
    bucket: text("bucket").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Deal = typeof deals.$inferSelect;
export type NewDeal = typeof deals.$inferInsert;
export type Milestone = typeof milestones.$inferSelect;
export type NewMilestone = typeof milestones.$inferInsert;
export type Deliverable = typeof deliverables.$inferSelect;
export type Verification = typeof verifications.$inferSelect;
export type Settlement = typeof settlements.$inferSelect;
export type ChainTransaction = typeof chainTransactions.$inferSelect;
export type FaucetDrip = typeof faucetDrips.$inferSelect;
export type DealEvent = typeof dealEvents.$inferSelect;
