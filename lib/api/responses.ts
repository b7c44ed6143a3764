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
import {
  address,
  decimal,
  hex32,
  iso,
  metadataJson,
  nextCursor,
  score,
  units,
} from "@/lib/api/fields";
import type { UserJson } from "@/lib/auth/users";
import type { WalletNonceJson } from "@/lib/auth/wallet";
import type { DripResult } from "@/lib/chain/faucet";
import type { RelayStatus } from "@/lib/chain/relay";
import type { Reputation } from "@/lib/chain/reputation";
import type { TestFundsResult } from "@/lib/chain/test-funds";
import { dealSchema } from "@/lib/deals/serialize";
import type { FundingTermsJson } from "@/lib/escrow/deals";
import type { DepositJson } from "@/lib/escrow/deposit";
import type { Health } from "@/lib/health";
import type { NotificationJson } from "@/lib/notify/inbox";
import type { HandleJson } from "@/lib/profile/handles";
import type { ReconcileReport } from "@/lib/settle/reconcile";
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

// ── Escrow ────────────────────────────────────────────────────────────────────────────

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
    bonusesPaid: z.number().int().describe("Funded bonuses paid by this run"),
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
