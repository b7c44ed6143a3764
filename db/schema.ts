import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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

/** Up to 20 string pairs of the integrator's own (lib/metadata.ts). */
const metadata = () => jsonb("metadata").$type<Record<string, string>>().notNull().default({});
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const units = (name: string) => bigint(name, { mode: "bigint" });

export const profileTypes = ["creator", "organization"] as const;
export type ProfileType = (typeof profileTypes)[number];

/**
 * How a payout wallet was proven: a signed message from the wallet itself, or the identity
 * provider's embedded wallet delivered in a verified identity token.
 */
export type WalletSource = "signature" | "identity_token";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    email: text("email").notNull(),
    profileType: text("profile_type").$type<ProfileType>().notNull().default("creator"),
    /** Shown to the other party instead of the e-mail (an organisation's name, a creator's). */
    displayName: text("display_name"),
    /** EIP-55 checksummed; only set once proven (signature or identity token). */
    walletAddress: text("wallet_address"),
    walletSource: text("wallet_source").$type<WalletSource>(),
    /** Embedded in every session token; sign-out increments it, revoking them all. */
    sessionVersion: integer("session_version").notNull().default(0),
    /**
     * A send from the user's embedded wallet being recorded holds this until then (taken after
     * the network calls and before the relayer allocates a nonce, given back once recorded):
     * concurrent sends are checked against the balance one after another before any nonce.
     */
    withdrawalLeaseUntil: timestamp("withdrawal_lease_until", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_issuer_subject_key").on(t.issuer, t.subject),
    uniqueIndex("users_wallet_address_key").on(sql`lower(${t.walletAddress})`),
    check("users_profile_type_check", sql`${t.profileType} in ('creator', 'organization')`),
  ],
);

/**
 * Further ways to sign in to an account, each linked by its holder while signed in (an
 * OpenID account, say, added to an account an e-mail link made). The account's first
 * identity stays on `users` (issuer, subject); sign-in looks in both. One user per verified
 * e-mail: a new identity whose e-mail another account holds is refused, not given a second
 * account (lib/auth/accounts.ts).
 */
export const userIdentities = pgTable(
  "user_identities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    /** The e-mail the identity carried when it was linked (shown on the profile). */
    email: text("email"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_identities_issuer_subject_key").on(t.issuer, t.subject),
    index("user_identities_user_idx").on(t.userId),
  ],
);

export type UserIdentity = typeof userIdentities.$inferSelect;

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
 * E-mail sign-in links (lib/auth/email-link.ts): the token's hash (never the token), the
 * address, and the hash of the nonce cookie of the browser that asked. Deleted on use.
 */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    browserHash: text("browser_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_links_expires_idx").on(t.expiresAt)],
);

/** Sign-In with Ethereum nonces for signing in (no user yet), bound to the asking browser. */
export const signInNonces = pgTable(
  "sign_in_nonces",
  {
    nonce: text("nonce").primaryKey(),
    browserHash: text("browser_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_nonces_expires_idx").on(t.expiresAt)],
);

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
    /**
     * The confidence (basis points) a verdict needs to settle on its own; below it settle
     * answers 409 needs_decision and the brand decides (lib/verify/confidence.ts). The
     * default is the threshold chosen on the eval (AUTO_SETTLE_CONFIDENCE).
     */
    autoSettleConfidenceBps: integer("auto_settle_confidence_bps").notNull().default(9000),
    budgetUnits: units("budget_units").notNull(),
    /**
     * After a submission, the brand has this long to settle or decide; after it the creator
     * may trigger the settlement themselves (lib/deals/timers.ts).
     */
    reviewWindowSeconds: integer("review_window_seconds").notNull().default(604800),
    /**
     * Counts the brand's edits of the terms (lib/deals/edit.ts): a creator takes the version
     * they reviewed, or is told the deal changed (409 terms_changed).
     */
    termsVersion: integer("terms_version").notNull().default(1),
    /**
     * The FTC disclosure rule (lib/verify/checks.ts, checkDisclosure): on, every post must
     * carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the
     * platform's paid-partnership label. On for every new deal; off only by the brand's
     * explicit choice, with the reason both parties see (`disclosureOffReason`). Deals made
     * before the rule existed keep the terms they were made with: off, with that reason.
     */
    disclosureRequired: boolean("disclosure_required").notNull().default(true),
    disclosureOffReason: text("disclosure_off_reason"),
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
    /**
     * A funding the service relays is in flight until then (lib/deals/funding.ts): set in
     * the statement that finds the deal unfunded, cleared when the funding resolves; a cancel
     * meanwhile answers 409 funding_in_progress. A crashed request's hold just runs out.
     */
    fundingHeldUntil: timestamp("funding_held_until", { withTimezone: true }),
    /** The attempts holding it (one id per request); the hold ends with the last one. */
    fundingAttempts: uuid("funding_attempts").array().notNull().default(sql`'{}'::uuid[]`),
    /** The creator's payout address as recorded on-chain when they took the deal. */
    creatorWallet: text("creator_wallet"),
    /** The evaluator's assignCreator transaction (see lib/escrow). */
    assignTxId: uuid("assign_tx_id").references(() => chainTransactions.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    /**
     * A bonus (lib/deals/bonuses.ts): this row is the escrow deal of a bonus the brand sends on
     * the parent deal after a paid milestone — one milestone of the bonus amount, the parent's
     * creator assigned, funded by any funding path and released at 100 % by the service with
     * the bonus record's hash. Null for every ordinary deal. A bonus deal is never listed,
     * taken, edited or submitted to; its events reach the parties as `bonus.*` events of the
     * parent deal.
     */
    parentDealId: uuid("parent_deal_id").references((): AnyPgColumn => deals.id, {
      onDelete: "cascade",
    }),
    /** The brand's plain-text message with the bonus (set exactly on bonus deals). */
    bonusMessage: text("bonus_message"),
    /** The integrator's own key-value pairs (lib/metadata.ts); searchable on the deal list. */
    metadata: metadata(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("deals_brand_id_idx").on(t.brandId),
    index("deals_parent_idx")
      .on(t.parentDealId, t.createdAt)
      .where(sql`${t.parentDealId} is not null`),
    check("deals_bonus_check", sql`(${t.parentDealId} is null) = (${t.bonusMessage} is null)`),
    index("deals_metadata_idx").using("gin", sql`${t.metadata} jsonb_path_ops`),
    index("deals_creator_id_idx").on(t.creatorId),
    // Keyset pagination of the lists: newest first, id as the tie-breaker.
    index("deals_brand_created_idx").on(t.brandId, t.createdAt, t.id),
    index("deals_creator_created_idx").on(t.creatorId, t.createdAt, t.id),
    index("deals_status_created_idx").on(t.status, t.createdAt, t.id),
    // The open deals a creator may take (db/queries/deals.ts listOpenDealsPage), newest or
    // oldest first and by budget: a page reads its rows along the index whatever the number
    // of open deals (by budget it sorted every open deal before, 0.9 ms at 1,000 open).
    index("deals_open_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'open' and ${t.creatorId} is null`),
    index("deals_open_budget_idx")
      .on(t.budgetUnits, t.createdAt, t.id)
      .where(sql`${t.status} = 'open' and ${t.creatorId} is null`),
    uniqueIndex("deals_brand_starter_key").on(t.brandId, t.starterKey),
    check(
      "deals_status_check",
      sql`${t.status} in ('unfunded', 'open', 'active', 'completed', 'cancelled', 'expired')`,
    ),
    check("deals_budget_check", sql`${t.budgetUnits} > 0`),
    check("deals_min_score_check", sql`${t.minScoreBps} between 0 and 10000`),
    check(
      "deals_auto_settle_confidence_check",
      sql`${t.autoSettleConfidenceBps} between 5000 and 10000`,
    ),
    check("deals_review_window_check", sql`${t.reviewWindowSeconds} > 0`),
    // A regulated rule is never off silently: off always says why.
    check(
      "deals_disclosure_check",
      sql`${t.disclosureRequired} or ${t.disclosureOffReason} is not null`,
    ),
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
    /** Who holds the verifier lease: only that caller may release it. */
    verifyLeaseOwner: uuid("verify_lease_owner"),
    metadata: metadata(),
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

/**
 * A draft of a milestone's post, shown to the brand before it is published (lib/drafts): the
 * caption and the media (an uploaded file in storage, or a link). Each submission is a new
 * revision; the brand approves one or asks for changes with a message. `submitted` until the
 * brand acts on it or a newer revision replaces it (`superseded`). The live post must then
 * match the latest approved draft's caption (lib/verify/draft-match.ts).
 */
export const draftStatuses = ["submitted", "approved", "changes_requested", "superseded"] as const;
export type DraftStatus = (typeof draftStatuses)[number];
export type DraftMediaKind = "image" | "video" | "link";

export const drafts = pgTable(
  "drafts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    caption: text("caption").notNull(),
    mediaKind: text("media_kind").$type<DraftMediaKind>(),
    /** The uploaded file's key in storage (lib/storage); null for a link or no media. */
    mediaKey: text("media_key"),
    /** The stored file's type, as its bytes said (lib/storage/uploads.ts). */
    mediaType: text("media_type"),
    mediaSize: integer("media_size"),
    /** The file's name as uploaded (shown to the brand), or null. */
    mediaName: text("media_name"),
    /** A link to the media instead of a file (a preview on a drive, an unlisted video). */
    mediaUrl: text("media_url"),
    status: text("status").$type<DraftStatus>().notNull().default("submitted"),
    submittedBy: uuid("submitted_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The brand's message with a change request. */
    reviewMessage: text("review_message"),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("drafts_milestone_revision_key").on(t.milestoneId, t.revision),
    check(
      "drafts_status_check",
      sql`${t.status} in ('submitted', 'approved', 'changes_requested', 'superseded')`,
    ),
    check("drafts_media_kind_check", sql`${t.mediaKind} in ('image', 'video', 'link')`),
  ],
);
export type Draft = typeof drafts.$inferSelect;

export type VerdictSource = "model" | "rubric" | "brand_decision";
/** One share taken off a verdict's score: basis points and the reason, in one line. */
export type VerdictDeduction = { bps: number; reason: string };

/**
 * Where a deliverable's evidence was read from (lib/verify/evidence): the fetched post,
 * one record per deliverable revision. `status` other than `ok` means the post could not be
 * read; such a revision is never approved automatically.
 */
export const evidenceStatuses = ["ok", "unreachable", "deleted", "blocked", "unsupported"] as const;
export type EvidenceStatus = (typeof evidenceStatuses)[number];

export const evidence = pgTable(
  "evidence",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    status: text("status").$type<EvidenceStatus>().notNull(),
    platform: text("platform").notNull(),
    url: text("url").notNull(),
    canonicalUrl: text("canonical_url"),
    authorHandle: text("author_handle"),
    caption: text("caption"),
    mediaType: text("media_type"),
    thumbnailUrl: text("thumbnail_url"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
    /** The platform showed its paid-partnership label on the post (false: not shown, or not told). */
    paidPartnership: boolean("paid_partnership").notNull().default(false),
    /** keccak256 of the canonical evidence record: what the verdict record refers to. */
    contentHash: text("content_hash").notNull(),
    /** Why it could not be read (status other than ok), in words a person understands. */
    error: text("error"),
  },
  (t) => [uniqueIndex("evidence_milestone_revision_key").on(t.milestoneId, t.revision)],
);

/**
 * One post, one payment: a post (its normalised URL, its canonical URL once fetched, its
 * evidence's content hash; lib/deals/post-identity.ts) is the evidence of one milestone at
 * a time. Claimed with the deliverable, in its transaction; claimed again with the
 * settlement that pays it (`settledAt`), after which it is never released. An unsettled
 * claim is free for another milestone once its own is rejected or refunded, its deal
 * cancelled or expired, or it moved on to another revision (lib/deals/evidence-claims.ts).
 */
export const evidenceClaims = pgTable(
  "evidence_claims",
  {
    kind: text("kind").$type<"url" | "content">().notNull(),
    key: text("key").notNull(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    /** The milestone's revision that claimed it last. */
    revision: integer("revision").notNull(),
    /** When a settlement paying the milestone on it was created: from then on it is held for good. */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.key] }),
    index("evidence_claims_milestone_idx").on(t.milestoneId),
    check("evidence_claims_kind_check", sql`${t.kind} in ('url', 'content')`),
  ],
);
export type EvidenceClaim = typeof evidenceClaims.$inferSelect;

/** A creator's handle on a platform: a post's author must match it (lib/verify/evidence). */
export const creatorHandles = pgTable(
  "creator_handles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text("platform").notNull(),
    handle: text("handle").notNull(),
    /** When the creator proved they own the handle; null: declared only, its posts do not count. */
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** The one-time code to place in a post (or bio) by the handle; null once verified. */
    verificationCode: text("verification_code"),
    verificationExpiresAt: timestamp("verification_expires_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.platform] }),
    // One account per verified handle and platform: two creators cannot both claim the same
    // posts. Unverified claims may coexist (a squatter cannot lock the owner out), except on
    // the sandbox, where the first to declare a handle holds it.
    uniqueIndex("creator_handles_verified_key")
      .on(t.platform, t.handle)
      .where(sql`${t.verifiedAt} is not null`),
    uniqueIndex("creator_handles_sandbox_key").on(t.handle).where(sql`${t.platform} = 'sandbox'`),
  ],
);

/** The built-in sandbox social platform of the embedded default (app/social). */
export const sandboxPosts = pgTable(
  "sandbox_posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    handle: text("handle").notNull(),
    caption: text("caption").notNull(),
    mediaType: text("media_type").notNull().default("video"),
    /** The post shows the sandbox's "Paid partnership" label, as platforms' branded-content labels do. */
    paidPartnership: boolean("paid_partnership").notNull().default(false),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("sandbox_posts_user_idx").on(t.userId, t.createdAt)],
);

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
    /** Who judged, in words: "Rule check", "AI review (model)", "Panel of N models". */
    verifier: text("verifier"),
    /** Each share taken off the score and why, from the verifier's output (lib/verify/verdict.ts). */
    deductions: jsonb("deductions").$type<VerdictDeduction[]>().notNull().default([]),
    /** How sure the verifier is of its verdict (basis points); settle pays only above the threshold. */
    confidenceBps: integer("confidence_bps").notNull().default(10_000),
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
    check("verifications_confidence_check", sql`${t.confidenceBps} between 0 and 10000`),
  ],
);

/** A creator's appeal of a rejected revision; the brand answers it with a decision. */
export const appeals = pgTable(
  "appeals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    status: text("status").$type<"open" | "decided">().notNull().default("open"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // One appeal per revision, ever: a second one is a 409, not a second round.
  (t) => [uniqueIndex("appeals_milestone_revision_key").on(t.milestoneId, t.revision)],
);

/**
 * The brand's decision on a revision (approve with a chosen score, or uphold a rejection),
 * always with a reason. At most one per revision: it replaces the verifier's verdict for the
 * settlement, and its record (lib/verify/record.ts) says who decided and why.
 */
export const decisions = pgTable(
  "decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    deciderId: uuid("decider_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    approved: boolean("approved").notNull(),
    scoreBps: integer("score_bps").notNull(),
    reason: text("reason").notNull(),
    appealId: uuid("appeal_id").references(() => appeals.id, { onDelete: "set null" }),
    record: text("record").notNull(),
    recordHash: text("record_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("decisions_milestone_revision_key").on(t.milestoneId, t.revision),
    check("decisions_score_check", sql`${t.scoreBps} between 0 and 10000`),
  ],
);

/**
 * The brand's request for changes to a submitted revision (lib/settle/change-requests.ts):
 * the milestone goes back to `pending` with no verdict, nothing is paid or refunded, and the
 * creator's next submission is a new revision with its own review window. At most one per
 * revision: the unique key makes a repeated request (concurrent or not) a 409.
 */
export const changeRequests = pgTable(
  "change_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    /** The revision sent back. */
    revision: integer("revision").notNull(),
    requestedBy: uuid("requested_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("change_requests_milestone_revision_key").on(t.milestoneId, t.revision)],
);
export type ChangeRequest = typeof changeRequests.$inferSelect;

/** Where a message's file is stored and what it is (its type read from its bytes). */
export type MessageAttachment = {
  key: string;
  contentType: string;
  kind: "image" | "video";
  size: number;
  name: string | null;
};

/**
 * The thread between a deal's brand and its creator (lib/deals/messages.ts): plain text as
 * sent. `seq` orders it and is both the list's cursor and the read markers' unit.
 */
export const dealMessages = pgTable(
  "deal_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    /** A file sent with the message (lib/storage: checked, metadata removed), or null. */
    attachment: jsonb("attachment").$type<MessageAttachment>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deal_messages_seq_key").on(t.seq),
    index("deal_messages_deal_seq_idx").on(t.dealId, t.seq),
  ],
);
export type DealMessage = typeof dealMessages.$inferSelect;

/** How far each party has read a deal's thread: the other party's later messages are unread. */
export const dealMessageReads = pgTable(
  "deal_message_reads",
  {
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastReadSeq: bigint("last_read_seq", { mode: "number" }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.userId] })],
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
    /** The block the receipt named: a reorg is seen when the chain's block there differs. */
    blockHash: text("block_hash"),
    /** When the current version (`rawTx`, `hash`) was signed: a replacement starts it again. */
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull().defaultNow(),
    /** How many versions were signed for this nonce (more than one: see chainTransactionVersions). */
    versions: integer("versions").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The oldest transaction still in flight (the stuck-transaction alert, lib/health.ts).
    index("chain_transactions_in_flight_idx")
      .on(t.createdAt)
      .where(sql`${t.status} in ('pending', 'submitted')`),
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

/**
 * Every version of a transaction the sender re-signed on the same nonce with higher fees
 * (lib/chain/sender.ts, replaceStuck): the first replacement records the original and the
 * new one, each later one itself. Whichever version is mined is the transaction's `hash`.
 */
export const chainTransactionVersions = pgTable(
  "chain_transaction_versions",
  {
    hash: text("hash").primaryKey(),
    transactionId: uuid("transaction_id")
      .notNull()
      .references(() => chainTransactions.id, { onDelete: "cascade" }),
    rawTx: text("raw_tx").notNull(),
    maxFeePerGas: units("max_fee_per_gas").notNull(),
    maxPriorityFeePerGas: units("max_priority_fee_per_gas").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("chain_transaction_versions_tx_idx").on(t.transactionId)],
);

export type ChainTransactionVersion = typeof chainTransactionVersions.$inferSelect;

/** How far a reader of the chain has got (e.g. the escrow's logs: the next block to read). */
export const chainCursors = pgTable(
  "chain_cursors",
  {
    chainId: integer("chain_id").notNull(),
    name: text("name").notNull(),
    nextBlock: units("next_block").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.name] })],
);

/**
 * Logs of our contracts as read from the chain (lib/chain/logs.ts), by bounded block ranges
 * from a cursor: `topic1` is the first indexed argument (the escrow's deal key).
 */
export const chainLogs = pgTable(
  "chain_logs",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    blockNumber: units("block_number").notNull(),
    blockHash: text("block_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    txHash: text("tx_hash").notNull(),
    topic0: text("topic0").notNull(),
    topic1: text("topic1"),
    topics: jsonb("topics").$type<string[]>().notNull(),
    data: text("data").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.blockHash, t.logIndex] }),
    index("chain_logs_topic1_idx").on(t.chainId, t.address, t.topic1, t.blockNumber),
    index("chain_logs_block_idx").on(t.chainId, t.address, t.blockNumber),
  ],
);

export const depositStatuses = ["awaiting", "underpaid", "funded", "returned"] as const;
export type DepositStatus = (typeof depositStatuses)[number];

/**
 * A deal's deposit address (lib/escrow/deposit.ts): the DepositForwarder clone whose
 * CREATE2 address binds the deal's ref, its funding terms and the brand's refund address
 * (`args`, the clone's abi-encoded arguments, kept so the forwarder can be deployed, swept or
 * refunded even after the deal's terms change). The watcher (reconcile) reads its USDC balance
 * and records what it saw (`receivedUnits`, `status`); the sweep and refund transactions are
 * claimed here (compare-and-set on the previous id), so each is sent once.
 */
export const dealDeposits = pgTable(
  "deal_deposits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dealId: uuid("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    chainId: integer("chain_id").notNull(),
    /** The forwarder's address (EIP-55). */
    address: text("address").notNull(),
    /** Where anything not released goes back (EIP-55). */
    refundAddress: text("refund_address").notNull(),
    /** The forwarder's clone arguments: abi.encode(DepositTerms), hex. */
    args: text("args").notNull(),
    /** The balance last seen at the address (or swept / returned from it). */
    receivedUnits: units("received_units").notNull().default(sql`0`),
    status: text("status").$type<DepositStatus>().notNull().default("awaiting"),
    sweepTxId: uuid("sweep_tx_id").references(() => chainTransactions.id),
    refundTxId: uuid("refund_tx_id").references(() => chainTransactions.id),
    /**
     * A watcher recording this address's sweep or return holds it until then (taken before
     * the sender allocates a nonce, released once the transaction is in its slot): watchers
     * running at once (the cron on every instance) do not each allocate a nonce only to find
     * the slot taken, which would leave it to a no-op.
     */
    sendLeaseUntil: timestamp("send_lease_until", { withTimezone: true }),
    /**
     * When a newer address replaced this one (a new refund address, new terms). Every address
     * ever handed out stays: the watcher returns what a replaced one receives until the deal's
     * deadline plus the grace period. At most one current (null) row per deal.
     */
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("deal_deposits_current_key").on(t.dealId).where(sql`${t.supersededAt} is null`),
    index("deal_deposits_deal_idx").on(t.dealId),
    index("deal_deposits_status_updated_idx").on(t.status, t.updatedAt),
    check(
      "deal_deposits_status_check",
      sql`${t.status} in ('awaiting', 'underpaid', 'funded', 'returned')`,
    ),
  ],
);

export type DealDeposit = typeof dealDeposits.$inferSelect;

/**
 * The next nonce of each signer, allocated under the row's lock without any network call;
 * resynchronised from the chain at start and after a refusal (lib/chain/sender.ts).
 */
export const signerNonces = pgTable(
  "signer_nonces",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nextNonce: integer("next_nonce").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
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
    /**
     * The index, in `txHash`'s receipt, of the escrow's Released event that paid it: one
     * transaction releases many milestones (releaseBatch), each with its own event.
     */
    logIndex: integer("log_index"),
    chainTxId: uuid("chain_tx_id").references(() => chainTransactions.id),
    /**
     * A relayed release's signature. The escrow releases a milestone at most once, so a
     * renewed signature (after this one's deadline) can never pay twice.
     */
    relayAuthorization: jsonb("relay_authorization").$type<ReleaseAuthorization>(),
    relayTaskId: text("relay_task_id"),
    /** Whoever advances the settlement holds this lease; others get settlement_in_progress. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** Who holds the lease: a caller whose lease ran out cannot release its successor's. */
    leaseOwner: uuid("lease_owner"),
    reputationTxHash: text("reputation_tx_hash"),
    /**
     * A reputation drain holds the queued record until then (db/queries/reputation.ts): no
     * other drain sends it meanwhile, so it is never both in one drain's batch and sent alone
     * by another's (which the registry refuses as AlreadyRecorded).
     */
    reputationLeaseUntil: timestamp("reputation_lease_until", { withTimezone: true }),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("settlements_milestone_key").on(t.milestoneId),
    index("settlements_deal_idx").on(t.dealId),
    index("settlements_status_idx").on(t.status),
    // The reputation queue: confirmed settlements whose record is not yet on-chain.
    index("settlements_reputation_queue_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'confirmed' and ${t.reputationTxHash} is null`),
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
  "edited",
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
  "appealed",
  "decided",
  "overdue",
  "review_window_elapsed",
  "deposit.received",
  "funding.returned",
  "draft.submitted",
  "draft.approved",
  "draft.changes_requested",
  "milestone.changes_requested",
  "message.created",
  "bonus.funded",
  "bonus.paid",
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
    /**
     * What the event is about and how it looked just after (lib/events/objects.ts), and for a
     * change, the fields it changed with their values before. Written with the event, from the
     * rows in the same statement; null on events from before they were recorded.
     */
    objectType: text("object_type").$type<EventObjectType>(),
    object: jsonb("object").$type<Record<string, unknown>>(),
    previousAttributes: jsonb("previous_attributes").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deal_events_seq_key").on(t.seq),
    index("deal_events_deal_seq_idx").on(t.dealId, t.seq),
  ],
);

/** What an event is about: its `data.object` (lib/events/objects.ts). */
export const eventObjectTypes = ["deal", "milestone"] as const;
export type EventObjectType = (typeof eventObjectTypes)[number];

/**
 * The in-app inbox: one row per event for each party who did not cause it, written with the
 * event (lib/events). `readAt` null = unread.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => dealEvents.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notifications_user_event_key").on(t.userId, t.eventId),
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("notifications_unread_idx").on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

export const outboxStatuses = ["pending", "sent", "failed"] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

/**
 * E-mails to send, written with the event that causes them and sent outside the request by
 * the pluggable sender (lib/notify); the embedded default "sends" to a local outbox page.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null for a sign-in link to an address with no account yet. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").references(() => dealEvents.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: text("status").$type<OutboxStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_outbox_user_event_key").on(t.userId, t.eventId),
    index("email_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** What an API key may do; each route declares the one it needs (lib/http.ts route({ scope })). */
export const apiKeyScopes = ["read", "write", "settle", "webhooks"] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** Third-party API keys: shown once, stored only as a SHA-256 hash (lib/auth/api-keys.ts). */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The visible start of the key (e.g. `ms_live_ab12cd`), for recognising it in lists. */
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    scopes: jsonb("scopes").$type<ApiKeyScope[]>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The API version its requests are answered in, unless one sends Milestone-Version. */
    apiVersion: text("api_version").notNull().default("2026-11-24"),
    metadata: metadata(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_keys_hash_key").on(t.hash),
    index("api_keys_user_created_idx").on(t.userId, t.createdAt, t.id),
  ],
);

/** A user's webhook endpoint; `secret` signs every delivery (lib/webhooks). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Event types delivered; empty = all. */
    eventTypes: jsonb("event_types").$type<string[]>().notNull().default([]),
    enabled: boolean("enabled").notNull().default(true),
    secret: text("secret").notNull(),
    /** Why the service disabled it (persistent failure), shown as a notice. */
    disabledReason: text("disabled_reason"),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    metadata: metadata(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_created_idx").on(t.userId, t.createdAt, t.id)],
);

export const deliveryStatuses = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/**
 * One delivery of one event to one endpoint, written with the event (the outbox) and sent
 * by the reconcile routine; retried with exponential backoff, at most once delivered.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The event delivered; null for a test event (`testEvent` holds it instead). */
    eventId: uuid("event_id").references(() => dealEvents.id, { onDelete: "cascade" }),
    /** A test event sent from the settings page (POST /api/webhooks/:id/test): the event itself. */
    testEvent: jsonb("test_event").$type<Record<string, unknown>>(),
    /** The body of the last attempt, and what the receiver answered (headers, capped body). */
    requestBody: text("request_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_key").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt, t.id),
    check(
      "webhook_deliveries_event_check",
      sql`(${t.eventId} is null) <> (${t.testEvent} is null)`,
    ),
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
    /**
     * This claim of the key: an expired key is claimed anew (a new id), and a request whose
     * claim was taken over can neither record nor release its successor's.
     */
    claimId: uuid("claim_id").notNull().defaultRandom(),
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
export type Appeal = typeof appeals.$inferSelect;
export type Decision = typeof decisions.$inferSelect;
export type Evidence = typeof evidence.$inferSelect;
export type SandboxPost = typeof sandboxPosts.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/**
 * Money a user sent out of their embedded wallet (POST /api/wallet/withdrawals): a USDC
 * TransferWithAuthorization the wallet signed (lib/wallet/signer.ts) and the service's
 * relayer submitted. Its state is its transaction's (chain_transactions: pending, submitted,
 * confirmed, failed), which reconcile finishes like every other send.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    chainId: integer("chain_id").notNull(),
    /** The embedded wallet the money leaves (EIP-55). */
    fromAddress: text("from_address").notNull(),
    /** Where it goes (EIP-55): an exchange deposit address, another wallet. */
    toAddress: text("to_address").notNull(),
    amountUnits: units("amount_units").notNull(),
    /** The EIP-3009 authorization's nonce (bytes32 hex) and expiry (unix seconds). */
    authorizationNonce: text("authorization_nonce").notNull(),
    validBefore: units("valid_before").notNull(),
    chainTxId: uuid("chain_tx_id")
      .notNull()
      .references(() => chainTransactions.id),
    txHash: text("tx_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("withdrawals_user_created_idx").on(t.userId, t.createdAt),
    index("withdrawals_chain_from_idx").on(t.chainId, sql`lower(${t.fromAddress})`),
    uniqueIndex("withdrawals_chain_tx_key").on(t.chainTxId),
  ],
);

export type Withdrawal = typeof withdrawals.$inferSelect;
