import { z } from "zod";
import {
  dealEventTypes,
  dealStatuses,
  deliveryStatuses,
  evidenceStatuses,
  milestoneStatuses,
  profileTypes,
  settlementVias,
  txStatuses,
} from "@/db/schema";
import type { UserJson } from "@/lib/auth/users";
import type { WalletNonceJson } from "@/lib/auth/wallet";
import type { DripResult } from "@/lib/chain/faucet";
import type { RelayStatus } from "@/lib/chain/relay";
import type { Reputation } from "@/lib/chain/reputation";
import type { TestFundsResult } from "@/lib/chain/test-funds";
import type { DealPage } from "@/lib/deals/deals";
import type { MessageJson, MessagePage } from "@/lib/deals/messages";
import type { MilestoneDetailJson } from "@/lib/deals/milestones";
import type {
  ChangeRequestJson,
  DealJson,
  DeliverableJson,
  EscrowJson,
  MilestoneJson,
  SettlementJson,
  VerdictJson,
} from "@/lib/deals/serialize";
import type { FundingTermsJson } from "@/lib/escrow/deals";
import type { DepositJson } from "@/lib/escrow/deposit";
import type { DealEventJson } from "@/lib/events/events";
import type { Health } from "@/lib/health";
import type { NotificationJson } from "@/lib/notify/inbox";
import type { HandleJson } from "@/lib/profile/handles";
import type { RequestChangesResult } from "@/lib/settle/change-requests";
import type { DecideResult } from "@/lib/settle/decisions";
import type { ReconcileReport } from "@/lib/settle/reconcile";
import type { AppealJson, DealDetailJson, DecisionJson, ReviewJson } from "@/lib/settle/review";
import type { SettleResult } from "@/lib/settle/settle";
import type { SandboxPostJson } from "@/lib/social/posts";
import type { ProfileJson } from "@/lib/users/profile";
import type { EvidenceJson } from "@/lib/verify/evidence/read";
import type { WebhookDeliveryJson, WebhookEndpointJson } from "@/lib/webhooks/endpoints";

// The success responses of every documented endpoint as zod schemas: documented in the OpenAPI
// reference (lib/openapi.ts, `responseSchema`) and checked against real answers of the
// route handlers by test/api/responses.test.ts, so the reference cannot drift from the code.
// The JSON itself is built in lib/deals/serialize.ts, lib/settle/review.ts and
// lib/events/events.ts; the type checks at the end of this file keep each schema's
// inferred type assignable to the TypeScript type the code produces.

const iso = z.iso.datetime();
const decimal = z
  .string()
  .regex(/^\d+\.\d{6}$/)
  .describe("USDC, a decimal string with 6 places");
const score = z.number().min(0).max(1);

/** `metadata` as returned (lib/metadata.ts). */
export const metadataJson = z
  .record(z.string(), z.string())
  .describe("Your own key-value pairs (up to 20)");

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
      requestId: z
        .string()
        .optional()
        .describe("The request's id, as in its Request-Id header: quote it when reporting"),
    }),
  })
  .meta({ id: "Error", description: "The contract's error envelope" });

export const requirementsJsonSchema = z
  .object({
    hashtags: z.array(z.string()),
    mentions: z.array(z.string()),
    links: z.array(z.string()),
    criteria: z.array(z.string()),
  })
  .meta({ id: "Requirements" });

export const deliverableSchema = z
  .object({
    url: z.string(),
    text: z.string(),
    note: z.string(),
    revision: z.number().int().positive(),
    submittedAt: iso,
  })
  .meta({ id: "Deliverable" });

export const verdictSchema = z
  .object({
    approved: z.boolean(),
    score,
    reasoning: z.string(),
    missing: z.array(z.string()),
    model: z.string(),
    verifier: z
      .string()
      .describe(
        'Who judged: "Rule check", "AI review (model)", "Panel of N models", "Brand decision"',
      ),
    deductions: z
      .array(
        z.object({
          points: z.number().min(0).max(1).describe("The share taken off the score (0.1 = 10 %)"),
          reason: z.string(),
        }),
      )
      .describe("What took the score below 100 %, one line each"),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe("How sure the verifier is; below the auto-settle threshold the brand decides"),
    revision: z.number().int().positive(),
    verifiedAt: iso,
  })
  .meta({ id: "Verdict" });

export const settlementSchema = z
  .object({
    id: z.uuid(),
    milestoneId: z.uuid(),
    via: z.enum(settlementVias),
    chainId: z.number().int(),
    amount: decimal.describe("Paid to the creator by the escrow release"),
    refund: decimal.describe(
      "The rest of the milestone, returned to the brand by the same release",
    ),
    verdictHash: z.string().nullable().describe("The verdict (or decision) record's hash on-chain"),
    scoreUsed: score,
    recipient: z.string(),
    txHash: z.string().nullable(),
    status: z.enum(txStatuses),
    explorerUrl: z.string().nullable(),
    reputationTxHash: z.string().nullable(),
    inFlight: z.boolean().describe("A settle call or reconcile is advancing the payment right now"),
    error: z.string().nullable().describe("Why the last attempt failed (a failed settlement)"),
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "Settlement" });

export const escrowSchema = z
  .object({
    funded: z.boolean(),
    budget: decimal,
    locked: decimal.describe("Still held by the escrow"),
    released: decimal.describe("Paid to the creator"),
    refunded: decimal.describe("Returned to the brand"),
    deadline: iso,
    refundableAt: iso.describe("After this instant unreleased milestones are refundable"),
    chainId: z.number().int().nullable(),
    address: z.string().nullable(),
    brandWallet: z.string().nullable(),
    refundTo: z.string().nullable(),
    creatorWallet: z.string().nullable(),
    creatorAssigned: z.boolean(),
    fundingTxHash: z.string().nullable(),
    fundingExplorerUrl: z.string().nullable(),
  })
  .meta({ id: "Escrow" });

export const changeRequestSchema = z
  .object({
    id: z.uuid(),
    revision: z
      .number()
      .int()
      .positive()
      .describe("The revision sent back; the creator's next submission is the next one"),
    message: z.string().describe("What the brand asks to change (plain text)"),
    requestedAt: iso,
  })
  .meta({ id: "ChangeRequest" });

export const milestoneSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    title: z.string(),
    amount: z.number().describe("USDC"),
    requirements: requirementsJsonSchema,
    dueAt: iso.nullable(),
    status: z.enum(milestoneStatuses),
    deliverable: deliverableSchema.nullable().describe("The current revision's deliverable"),
    verdict: verdictSchema.nullable().describe("The verdict on the current revision"),
    settlement: settlementSchema.nullable(),
    changeRequest: changeRequestSchema
      .nullable()
      .describe(
        "Set while the milestone is pending because the brand asked for changes to its last submission (its deliverable is that revision; its verdict is null)",
      ),
    refundTxHash: z.string().nullable(),
    metadata: metadataJson,
  })
  .meta({ id: "Milestone" });

export const appealSchema = z
  .object({
    id: z.uuid(),
    revision: z.number().int().positive(),
    reason: z.string(),
    status: z.enum(["open", "decided"]),
    createdAt: iso,
    decidedAt: iso.nullable(),
  })
  .meta({ id: "Appeal" });

export const decisionSchema = z
  .object({
    id: z.uuid(),
    revision: z
      .number()
      .int()
      .nonnegative()
      .describe("0: the refund of an overdue milestone with nothing delivered"),
    approved: z.boolean(),
    score,
    reason: z.string(),
    decidedBy: z.object({ id: z.uuid(), name: z.string() }),
    appealId: z.uuid().nullable(),
    recordHash: z.string().describe("keccak256 of the canonical decision record"),
    decidedAt: iso,
  })
  .meta({ id: "Decision" });

export const reviewSchema = z
  .object({
    windowEndsAt: iso.nullable().describe("When the brand's review window ends (null: none)"),
    creatorMaySettle: z.boolean(),
    overdue: z.boolean(),
    appeal: appealSchema.nullable(),
    decision: decisionSchema.nullable(),
  })
  .meta({ id: "Review" });

export const milestoneWithReviewSchema = milestoneSchema
  .extend({ review: reviewSchema })
  .meta({ id: "MilestoneWithReview" });

export const milestoneDetailSchema = milestoneWithReviewSchema
  .extend({
    dealTitle: z.string(),
    history: z.object({
      deliverables: z.array(deliverableSchema),
      verdicts: z.array(verdictSchema),
      changeRequests: z.array(changeRequestSchema).describe("Every revision sent back for changes"),
    }),
  })
  .meta({ id: "MilestoneDetail" });

const partyBase = z.object({
  id: z.uuid(),
  name: z.string().describe("The display name, else the e-mail"),
  email: z.string().describe("Deprecated: kept for older clients"),
});

export const dealSchema = z
  .object({
    id: z.uuid(),
    brandId: z.uuid(),
    creatorId: z.uuid().nullable(),
    title: z.string(),
    description: z.string(),
    platform: z.string(),
    budget: z.number().describe("USDC"),
    status: z.enum(dealStatuses),
    minScore: score,
    autoSettleConfidence: z
      .number()
      .min(0.5)
      .max(1)
      .describe(
        "The confidence a verdict needs to settle on its own; below it POST /api/settle answers 409 needs_decision and the brand decides",
      ),
    termsVersion: z
      .number()
      .int()
      .describe("Goes up with each edit of the terms; pass it to accept to take this version"),
    disclosure: z
      .object({
        required: z
          .boolean()
          .describe(
            "Every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label",
          ),
        reason: z
          .string()
          .nullable()
          .describe("Why the brand turned the rule off; null while it is on"),
      })
      .describe("The deal's FTC disclosure rule: on by default, off only with a reason"),
    inviteEmail: z.string().nullable(),
    paid: decimal.describe("Paid out so far (confirmed settlements)"),
    escrow: escrowSchema,
    brand: partyBase.nullable(),
    creator: partyBase.extend({ walletAddress: z.string().nullable() }).nullable(),
    metadata: metadataJson,
    createdAt: iso,
    milestones: z.array(milestoneSchema),
  })
  .meta({ id: "Deal" });

export const dealDetailSchema = dealSchema
  .extend({
    reviewWindowSeconds: z.number().int().nonnegative(),
    milestones: z.array(milestoneWithReviewSchema),
  })
  .meta({ id: "DealDetail" });

export const dealEventSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(dealEventTypes),
    dealId: z.uuid(),
    milestoneId: z.uuid().nullable(),
    actor: z.object({ id: z.uuid() }).nullable(),
    data: z.record(z.string(), z.unknown()),
    createdAt: iso,
  })
  .meta({ id: "DealEvent" });

// ── Response bodies ───────────────────────────────────────────────────────────────────

const nextCursor = z.string().nullable().describe("Pass as ?cursor= for the next page");

export const dealPageResponse = z.object({ deals: z.array(dealSchema), nextCursor });
export const dealResponse = z.object({ deal: dealSchema });
export const dealDetailResponse = z.object({ deal: dealDetailSchema });
export const milestoneDetailResponse = z.object({ milestone: milestoneDetailSchema });
export const verdictResponse = verdictSchema;
export const settleResponse = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("paid"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
    settlement: settlementSchema,
  }),
  z.object({
    outcome: z.literal("rejected"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
  }),
  z.object({
    outcome: z
      .literal("submitted")
      .describe("202: the release is sent, the chain has not confirmed it within the budget"),
    milestone: milestoneDetailSchema,
    verdict: verdictSchema,
    settlement: settlementSchema,
    poll: z.string().describe("The milestone's URL: its settlement turns confirmed"),
  }),
]);
export const decisionResponse = z.object({
  milestone: milestoneDetailSchema,
  settlement: settlementSchema.nullable(),
  poll: z
    .string()
    .optional()
    .describe(
      "202 only: the release is sent and the chain has not confirmed it within CHAIN_BUDGET_SECONDS; the milestone's URL, whose settlement turns confirmed",
    ),
});
export const appealResponse = z.object({ appeal: appealSchema, milestone: milestoneDetailSchema });
export const changeRequestResponse = z.object({
  changeRequest: changeRequestSchema,
  milestone: milestoneDetailSchema,
});
export const dealEventPageResponse = z.object({ events: z.array(dealEventSchema), nextCursor });

export const messageSchema = z
  .object({
    id: z.uuid(),
    dealId: z.uuid(),
    author: z.object({ id: z.uuid(), role: z.enum(["brand", "creator"]) }),
    body: z.string().describe("Plain text, as sent: render it as text, never as HTML"),
    attachment: z
      .object({
        url: z.string().describe("GET it with the same credentials (the deal's parties only)"),
        contentType: z.string(),
        kind: z.enum(["image", "video"]),
        size: z.number().int().nonnegative(),
        name: z.string().nullable(),
      })
      .nullable(),
    createdAt: iso,
  })
  .meta({ id: "Message" });
export const messagePageResponse = z.object({
  messages: z.array(messageSchema).describe("Newest first"),
  nextCursor,
  unreadCount: z
    .number()
    .int()
    .nonnegative()
    .describe("The other party's messages the caller has not marked read"),
});
export const messageResponse = z.object({ message: messageSchema });
export const messagesReadResponse = z.object({ unreadCount: z.number().int().nonnegative() });

// ── Escrow ────────────────────────────────────────────────────────────────────────────

// Typed as viem's `0x${string}` (the code's types), checked by the exact pattern.
type Hex = `0x${string}`;
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Hex>;
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/) as unknown as z.ZodType<Hex>;
const units = z.string().regex(/^\d+$/).describe("USDC base units (6 decimals)");

export const depositSchema = z
  .object({
    address: address.describe(
      "Send exactly `amount` USDC here, from any wallet or exchange: the deal's deposit forwarder (CREATE2), which can only fund this deal in the escrow or return the money to `refundAddress`",
    ),
    amount: decimal.describe("The deal's total, in USDC"),
    amountUnits: units,
    token: z.object({
      symbol: z.literal("USDC"),
      address,
      decimals: z.literal(6),
    }),
    chainId: z.number().int(),
    network: z.string().describe("The chain's name"),
    paymentUri: z
      .string()
      .describe("EIP-681: ethereum:<usdc>@<chainId>/transfer?address=<deposit>&uint256=<units>"),
    received: decimal.describe(
      "What the address received (its balance while waiting; what it swept or returned after)",
    ),
    receivedUnits: units,
    status: z
      .enum(["awaiting", "underpaid", "funded", "returned"])
      .describe(
        "awaiting: nothing yet; underpaid: less than `amount` (send the rest); funded: swept into the escrow; returned: sent back to `refundAddress`",
      ),
    refundAddress: address.describe(
      "Where an over-payment, a deposit to a cancelled or expired deal, and every unreleased amount go back",
    ),
  })
  .meta({ id: "Deposit" });
export const depositResponse = z.object({ deposit: depositSchema });

export const fundingTermsSchema = z
  .object({
    chainId: z.number().int(),
    escrow: address,
    usdc: address,
    dealRef: hex32.describe("The deal's ref: what `fund` and `fundWithAuthorization` take"),
    dealKey: hex32
      .nullable()
      .describe(
        "The escrow key of the deal funded by `?brand=` (or the brand's known funding wallet): keccak256(abi.encode(funder, dealRef))",
      ),
    evaluator: address.describe("This service: the only address that can release milestones"),
    deadline: z.number().int().describe("Unix seconds"),
    graceSeconds: z.number().int(),
    amounts: z.array(units).describe("Milestone amounts, in order"),
    total: decimal,
    totalUnits: units,
    authorizationNonce: hex32
      .nullable()
      .describe("The EIP-3009 nonce a gasless authorization must carry (given ?brand=)"),
    status: z.enum(dealStatuses),
    deposit: depositSchema
      .nullable()
      .describe(
        "The deal's deposit address (null: the brand has no wallet and named no refund address, or the deal never had one)",
      ),
  })
  .meta({ id: "FundingTerms" });
export const fundingTermsResponse = z.object({ funding: fundingTermsSchema });

// ── Auth and profile ──────────────────────────────────────────────────────────────────

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    profileType: z.enum(profileTypes),
    walletAddress: address.nullable().describe("EIP-55; null until a wallet is proven"),
  })
  .meta({ id: "User" });
export const userResponse = z.object({ user: userSchema });
export const sessionResponse = z.object({
  user: userSchema,
  token: z.string().describe("The session token, for Authorization: Bearer"),
  expiresAt: iso,
});
export const signedOutResponse = z.object({ signedOut: z.literal(true) });
export const walletNonceResponse = z
  .object({
    nonce: z.string(),
    issuedAt: iso,
    expiresAt: iso,
    domain: z.string(),
    uri: z.string(),
    statement: z.string(),
    chainId: z.number().int(),
    message: z.string().optional().describe("The SIWE message to sign (given ?address=)"),
  })
  .meta({ id: "WalletNonce" });

export const profileSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    profileType: z.enum(profileTypes),
    displayName: z.string().nullable().describe("null: none set (the e-mail is shown)"),
  })
  .meta({ id: "Profile" });
export const profileResponse = z.object({ profile: profileSchema });

export const handleSchema = z
  .object({
    platform: z.string(),
    handle: z.string(),
    createdAt: iso,
    verified: z.boolean().describe("Proved the caller's: only then do its posts count"),
    verifiedAt: iso.nullable(),
    verification: z
      .object({
        code: z.string().describe("Place it in a post by the handle, then ask for the check"),
        expiresAt: iso,
        expired: z.boolean(),
      })
      .nullable()
      .describe("While unverified: the one-time code to place"),
  })
  .meta({ id: "Handle" });
export const handleListResponse = z.object({ handles: z.array(handleSchema) });
export const handleResponse = z.object({ handle: handleSchema });

// ── Evidence and the sandbox platform ───────────────────────────────────────────────

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

export const sandboxPostSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    handle: z.string(),
    caption: z.string(),
    mediaType: z.string(),
    paidPartnership: z.boolean().describe("The post shows the sandbox's paid-partnership label"),
    createdAt: iso,
    deleted: z.boolean(),
  })
  .meta({ id: "SandboxPost" });
export const sandboxPostResponse = z.object({ post: sandboxPostSchema });
export const sandboxPostPageResponse = z.object({ posts: z.array(sandboxPostSchema), nextCursor });
export const oembedResponse = z
  .object({
    version: z.literal("1.0"),
    type: z.enum(["photo", "video"]),
    provider_name: z.string(),
    provider_url: z.string(),
    url: z.string(),
    title: z.string(),
    author_name: z.string(),
    author_url: z.string(),
    media_type: z.string(),
    paid_partnership: z
      .boolean()
      .describe("The sandbox's own field: the post shows its paid-partnership label"),
    published_at: iso,
    thumbnail_url: z.string().nullable(),
  })
  .meta({ id: "OEmbed" });

// ── Notifications and webhooks ──────────────────────────────────────────────────────

export const notificationSchema = z
  .object({
    id: z.uuid(),
    read: z.boolean(),
    createdAt: iso,
    title: z.string(),
    detail: z.string().nullable(),
    event: z.object({
      id: z.uuid(),
      type: z.enum(dealEventTypes),
      dealId: z.uuid(),
      milestoneId: z.uuid().nullable(),
      actor: z.enum(["brand", "creator", "service"]),
    }),
  })
  .meta({ id: "Notification" });
const unreadCountField = z.number().int().nonnegative();
export const notificationPageResponse = z.object({
  notifications: z.array(notificationSchema),
  nextCursor,
  unreadCount: unreadCountField,
});
export const unreadCountResponse = z.object({ unreadCount: unreadCountField });
export const markReadResponse = z.object({
  marked: z.number().int().nonnegative().describe("How many were unread and are now read"),
  unreadCount: unreadCountField,
});

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    eventTypes: z.array(z.enum(dealEventTypes)).describe("Empty: every type"),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .describe("Why the service disabled it (persistent failure)"),
    disabledAt: iso.nullable(),
    metadata: metadataJson,
    createdAt: iso,
    updatedAt: iso,
  })
  .meta({ id: "WebhookEndpoint" });
export const webhookDeliverySchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid().describe("The event's id: the receiver de-duplicates on it"),
    eventType: z.enum(dealEventTypes),
    status: z.enum(deliveryStatuses),
    attempts: z.number().int().nonnegative(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: iso.nullable().describe("When the next attempt is due (pending only)"),
    deliveredAt: iso.nullable(),
    test: z.boolean().describe("A test event (POST /api/webhooks/:id/test)"),
    request: z
      .object({ body: z.string() })
      .nullable()
      .describe("The last attempt's request body (null before the first)"),
    response: z
      .object({
        status: z.number().int().nullable(),
        headers: z.record(z.string(), z.string()),
        body: z.string().describe("The first 2 KiB"),
      })
      .nullable()
      .describe("What the receiver answered to the last attempt (null: no answer)"),
    createdAt: iso,
  })
  .meta({ id: "WebhookDelivery" });
export const webhookEndpointResponse = z.object({ endpoint: webhookEndpointSchema });
export const webhookSecretResponse = z.object({
  endpoint: webhookEndpointSchema,
  secret: z.string().describe("The signing secret: shown in this answer only"),
});
export const webhookEndpointPageResponse = z.object({
  endpoints: z.array(webhookEndpointSchema),
  nextCursor,
});
export const deletedResponse = z.object({ deleted: z.literal(true) });
export const webhookDeliveryPageResponse = z.object({
  deliveries: z.array(webhookDeliverySchema),
  nextCursor,
});
export const webhookDeliveryResponse = z.object({ delivery: webhookDeliverySchema });

// ── Chain, demo and operations ──────────────────────────────────────────────────────

export const dripResponse = z
  .object({
    funded: z.boolean().describe("false: this address or user had its drip already"),
    amount: z.string().describe('"2.00"'),
    txHash: hex32,
    reason: z.literal("already_funded").optional(),
    address,
    chainId: z.number().int(),
    status: z.enum(txStatuses),
    explorerUrl: z.string().nullable(),
  })
  .meta({ id: "Drip" });
export const testFundsResponse = z.object({
  address,
  amount: z.string(),
  txHash: hex32,
  explorerUrl: z.string().nullable(),
});
export const reputationResponse = z
  .object({
    wallet: address,
    chainId: z.number().int(),
    registry: address,
    count: z.number().int().nonnegative(),
    score: score.nullable().describe("Mean score; null before any record"),
  })
  .meta({ id: "Reputation" });
export const relayStatusResponse = z
  .object({
    configured: z.boolean(),
    provider: z.enum(["local", "gelato"]).nullable(),
    chainId: z.number().int(),
    supported: z.boolean(),
    sponsor: address.optional(),
    reason: z.string().optional(),
  })
  .meta({ id: "RelayStatus" });
export const healthResponse = z.object({
  ok: z.literal(true),
  db: z.literal("ok"),
  chain: z.object({
    chainId: z.number().int(),
    blockNumber: z.number().int().nonnegative(),
    name: z.string(),
  }),
  degraded: z
    .object({
      stuckTransaction: z.object({
        id: z.string(),
        purpose: z.string(),
        ageSeconds: z.number().int(),
      }),
    })
    .optional()
    .describe("Up, but a transaction has waited to be mined longer than TX_STUCK_ALERT_SECONDS"),
  detail: z
    .object({
      queues: z.object({
        outbox: z.number().int().describe("E-mails waiting to be sent"),
        webhooks: z.number().int().describe("Webhook deliveries waiting"),
        pendingTransactions: z.number().int().describe("Transactions not mined yet"),
        oldestPendingSeconds: z.number().int().nullable(),
      }),
      signer: z
        .object({
          address: z.string(),
          balanceWei: z.string(),
          floorWei: z.string().describe("SIGNER_BALANCE_FLOOR_WEI"),
          belowFloor: z.boolean(),
        })
        .nullable(),
    })
    .optional()
    .describe("With ?detail=1 and the cron secret: for operators"),
});
export const unlockedResponse = z.object({ unlocked: z.literal(true) });
export const starterDealsResponse = z.object({
  created: z.number().int().nonnegative().describe("0: they existed already (200)"),
  deals: z.array(dealSchema),
});
const drained = z.object({
  retrying: z.number().int(),
  failed: z.number().int(),
});
export const reconcileResponse = z.object({
  settlements: z.object({
    confirmed: z.number().int(),
    stillPending: z.number().int(),
    busy: z.number().int(),
    failed: z.number().int(),
  }),
  reputations: z.number().int(),
  escrow: z.object({
    funded: z.number().int(),
    assigned: z.number().int(),
    closed: z.number().int(),
    failed: z.number().int(),
  }),
  transactions: z.object({
    confirmed: z.number().int(),
    failed: z.number().int(),
    stillPending: z.number().int(),
  }),
  outbox: z
    .object({
      webhooks: drained.extend({ delivered: z.number().int() }),
      emails: drained.extend({ sent: z.number().int() }),
    })
    .optional(),
  timers: z
    .object({ reviewWindowsElapsed: z.number().int(), overdue: z.number().int() })
    .optional(),
  deposits: z
    .object({
      received: z.number().int(),
      swept: z.number().int(),
      returned: z.number().int(),
      failed: z.number().int(),
    })
    .optional(),
});
export const openApiDocumentResponse = z
  .object({ openapi: z.literal("3.1.0") })
  .catchall(z.unknown())
  .describe("This document");

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

// ── The schemas against the code's types ────────────────────────────────────────────
// Anything a schema accepts is a value of the type the code builds (a schema may be
// narrower: enums where the type says string). A field added to a type and not to its
// schema fails here (required keys), or in test/api/responses.test.ts (strict parse).

type Assignable<A extends B, B> = A;
export type SchemaChecks = [
  Assignable<z.infer<typeof deliverableSchema>, DeliverableJson>,
  Assignable<z.infer<typeof verdictSchema>, VerdictJson>,
  Assignable<z.infer<typeof settlementSchema>, SettlementJson>,
  Assignable<z.infer<typeof escrowSchema>, EscrowJson>,
  Assignable<z.infer<typeof milestoneSchema>, MilestoneJson>,
  Assignable<z.infer<typeof appealSchema>, AppealJson>,
  Assignable<z.infer<typeof changeRequestSchema>, ChangeRequestJson>,
  Assignable<z.infer<typeof messageSchema>, MessageJson>,
  Assignable<z.infer<typeof messagePageResponse>, MessagePage>,
  Assignable<z.infer<typeof changeRequestResponse>, RequestChangesResult>,
  Assignable<z.infer<typeof decisionSchema>, DecisionJson>,
  Assignable<z.infer<typeof reviewSchema>, ReviewJson>,
  Assignable<z.infer<typeof milestoneDetailSchema>, MilestoneDetailJson>,
  Assignable<z.infer<typeof dealSchema>, DealJson>,
  Assignable<z.infer<typeof dealDetailSchema>, DealDetailJson>,
  Assignable<z.infer<typeof dealEventSchema>, DealEventJson>,
  Assignable<z.infer<typeof dealPageResponse>, DealPage>,
  Assignable<z.infer<typeof settleResponse>, SettleResult>,
  Assignable<z.infer<typeof decisionResponse>, DecideResult>,
  Assignable<
    z.infer<typeof fundingTermsSchema>,
    FundingTermsJson & { status: string; deposit: DepositJson | null }
  >,
  Assignable<z.infer<typeof depositSchema>, DepositJson>,
  Assignable<z.infer<typeof userSchema>, UserJson>,
  Assignable<z.infer<typeof walletNonceResponse>, WalletNonceJson>,
  Assignable<z.infer<typeof profileSchema>, ProfileJson>,
  Assignable<z.infer<typeof handleSchema>, HandleJson>,
  Assignable<z.infer<typeof evidenceSchema>, EvidenceJson>,
  Assignable<z.infer<typeof sandboxPostSchema>, SandboxPostJson>,
  Assignable<z.infer<typeof notificationSchema>, NotificationJson>,
  Assignable<z.infer<typeof webhookEndpointSchema>, WebhookEndpointJson>,
  Assignable<z.infer<typeof webhookDeliverySchema>, WebhookDeliveryJson>,
  Assignable<z.infer<typeof dripResponse>, DripResult>,
  Assignable<z.infer<typeof testFundsResponse>, TestFundsResult>,
  Assignable<z.infer<typeof reputationResponse>, Reputation>,
  Assignable<z.infer<typeof relayStatusResponse>, RelayStatus>,
  Assignable<z.infer<typeof healthResponse>, Health>,
  Assignable<z.infer<typeof reconcileResponse>, ReconcileReport>,
];
