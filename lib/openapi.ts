import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import type { ApiKeyScope } from "@/db/schema";
import { openApiDocumentResponse } from "@/lib/api/responses";
import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER } from "@/lib/api/versions";
import {
  apiKeyPageResponse,
  apiKeyResponse,
  createApiKeyBody,
  createdApiKeyResponse,
  updateApiKeyBody,
} from "@/lib/auth/api-keys";
import { identitiesResponse } from "@/lib/auth/identities";
import {
  addressBody,
  roleBody,
  sessionBody,
  sessionResponse,
  signedOutResponse,
  walletLinkBody,
  walletNonceQuery,
} from "@/lib/auth/schemas";
import { userResponse } from "@/lib/auth/users";
import { walletNonceResponse } from "@/lib/auth/wallet";
import { dripResponse } from "@/lib/chain/faucet";
import { chainInfoResponse } from "@/lib/chain/integrator-info";
import { relayStatusQuery, relayStatusResponse } from "@/lib/chain/relay";
import { reputationResponse } from "@/lib/chain/reputation";
import { testFundsResponse } from "@/lib/chain/test-funds";
import { reconcileQuery } from "@/lib/cron";
import { dealPageResponse } from "@/lib/deals/deals";
import { fundingTermsResponse } from "@/lib/deals/funding";
import { messagePageResponse, messageResponse, messagesReadResponse } from "@/lib/deals/messages";
import { milestoneDetailResponse } from "@/lib/deals/milestones";
import {
  acceptBody,
  createDealBody,
  dealListQuery,
  deliverableBody,
  depositRequestBody,
  editDealBody,
  fundingAuthorizationBody,
  fundingReportBody,
  fundingTermsQuery,
  messageBody,
  messagesReadBody,
  messageUploadBody,
  milestonePatchBody,
  txHashBody,
} from "@/lib/deals/schemas";
import { dealResponse, fundingAuthorizationResponse, verdictSchema } from "@/lib/deals/serialize";
import { starterDealsResponse } from "@/lib/deals/starter";
import { unlockBody, unlockedResponse } from "@/lib/demo/schemas";
import {
  changesBody,
  draftBody,
  draftListQuery,
  draftPageResponse,
  draftResponse,
  draftUploadBody,
} from "@/lib/drafts/schemas";
import { errorEnvelopeSchema } from "@/lib/errors";
import { depositResponse } from "@/lib/escrow/deposit";
import { dealEventPageResponse } from "@/lib/events/events";
import { eventListQuery, eventPageResponse } from "@/lib/events/objects";
import { healthQuery, healthResponse } from "@/lib/health";
import type { RouteAccess } from "@/lib/http";
import { ledgerCsvQuery, ledgerQuery } from "@/lib/ledger/ledger";
import { ledgerCsvResponse, ledgerPageResponse } from "@/lib/ledger/schemas";
import {
  markReadResponse,
  notificationPageResponse,
  unreadCountResponse,
} from "@/lib/notify/inbox";
import { markReadBody, notificationsQuery } from "@/lib/notify/schemas";
import { pageQuery } from "@/lib/pagination";
import {
  deleteHandleQuery,
  handleListResponse,
  handleResponse,
  putHandleBody,
} from "@/lib/profile/handles";
import { verifyHandleBody } from "@/lib/profile/verify-handle";
import {
  bonusListResponse,
  bonusReleaseResponse,
  bonusResponse,
  createBonusBody,
} from "@/lib/settle/bonus-schemas";
import { changeRequestResponse } from "@/lib/settle/change-requests";
import { appealResponse, decisionResponse } from "@/lib/settle/decisions";
import { reconcileResponse } from "@/lib/settle/reconcile";
import { dealDetailResponse } from "@/lib/settle/review";
import {
  appealBody,
  decisionBody,
  refundMilestoneBody,
  requestChangesBody,
  settleRequestBody,
} from "@/lib/settle/schemas";
import { settleAnswer } from "@/lib/settle/settle";
import {
  oembedQuery,
  oembedResponse,
  publishBody,
  sandboxPostPageResponse,
  sandboxPostResponse,
} from "@/lib/social/posts";
import { uploadTicketBody, uploadTicketSchema } from "@/lib/storage/direct";
import { fileResponse } from "@/lib/storage/serve";
import { profilePatchBody, profileResponse } from "@/lib/users/profile";
import { evidenceListResponse, evidenceQuery } from "@/lib/verify/evidence/read";
import { precheckBody, precheckResponse } from "@/lib/verify/precheck";
import { verifyBody } from "@/lib/verify/verify-milestone";
import { walletOverviewResponse, withdrawalBody, withdrawalResponse } from "@/lib/wallet/schemas";
import {
  deletedResponse,
  webhookDeliveryPageResponse,
  webhookDeliveryResponse,
  webhookEndpointPageResponse,
  webhookEndpointResponse,
  webhookSecretResponse,
} from "@/lib/webhooks/endpoints";
import { createEndpointBody, updateEndpointBody } from "@/lib/webhooks/schemas";
import { testEventBody } from "@/lib/webhooks/test-events";

// The API reference, served as OpenAPI 3.1 at /api/openapi.json and rendered at /docs.
// Request schemas come from the same zod schemas the handlers validate with.

export type Endpoint = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  summary: string;
  /** true: a bearer credential or the session cookie; "cron": the cron secret as bearer. */
  auth: boolean | "cron";
  /**
   * Account and session management: a session only (the cookie or a session token). An API
   * key or a bare identity token gets 403 forbidden (lib/auth/caller.ts requireSessionUser).
   */
  sessionOnly?: boolean;
  /**
   * The scope an API key needs: never written here, it is read from the handler's own
   * `route({ scope })` by withScopes (app/api/reference.ts hands over the route modules).
   */
  scope?: ApiKeyScope;
  tag: string;
  body?: z.ZodType;
  /** A multipart/form-data body the handler also takes (an upload), beside or instead of JSON. */
  form?: z.ZodType;
  /** The query parameters the handler validates. */
  query?: z.ZodType;
  /** The success status, when not 200 (201 created, 202 accepted, 204 no body). */
  status?: 201 | 202 | 204;
  /**
   * The success response's body: the schema the module that builds the answer exports (its
   * serialiser's type is z.infer of it), never one written here; test/api/responses.test.ts
   * parses real answers with it and test/api/reference.test.ts checks it is imported.
   * null: no body (204).
   */
  responseSchema: z.ZodType | null;
  /**
   * The endpoint's own errors ("409 invalid_state (why)"). The ones every endpoint of its
   * kind can answer (a malformed body, a bad credential, a key without the scope, rate
   * limits, 500) are added by `errorsOf`.
   */
  errors: string[];
};

export const endpoints: Endpoint[] = [
  {
    method: "POST",
    path: "/api/auth/session",
    tag: "Auth",
    auth: false,
    body: sessionBody,
    summary: "Verify an identity token, upsert the user, start a session (cookie + bearer token).",
    responseSchema: sessionResponse,
    errors: [
      "401 invalid_token",
      "409 account_exists (the token's e-mail belongs to an account made another way: sign in that way, then link this one from the profile)",
      "503 not_configured | unavailable (the identity provider)",
    ],
  },
  {
    method: "GET",
    path: "/api/auth/identities",
    sessionOnly: true,
    tag: "Auth",
    auth: true,
    summary:
      "The ways the caller's account signs in (the first one, and those linked later from the profile) and which it can still link. One account per verified e-mail: a new way in whose e-mail another account holds is refused (409 account_exists) until linked from that account.",
    responseSchema: identitiesResponse,
    errors: [],
  },
  {
    method: "DELETE",
    path: "/api/auth/session",
    sessionOnly: true,
    tag: "Auth",
    auth: false,
    summary:
      "Sign out: revokes every session token of the caller (bearer or cookie; all devices) and clears the cookie.",
    responseSchema: signedOutResponse,
    errors: [
      "403 forbidden (an API key or identity token: sign out with the session) | csrf_rejected (cookie from another site)",
      "503 unavailable (the identity provider's keys, for an identity token)",
    ],
  },
  {
    method: "GET",
    path: "/api/auth/me",
    tag: "Auth",
    auth: true,
    summary: "The signed-in user.",
    responseSchema: userResponse,
    errors: [],
  },
  {
    method: "POST",
    path: "/api/auth/role",
    sessionOnly: true,
    tag: "Auth",
    auth: true,
    body: roleBody,
    summary: "Switch the active role (creator | organization). Never widens access to records.",
    responseSchema: userResponse,
    errors: [],
  },
  {
    method: "GET",
    path: "/api/auth/wallet/nonce",
    sessionOnly: true,
    query: walletNonceQuery,
    tag: "Auth",
    auth: true,
    summary: "A one-time nonce (and message) to sign for wallet linking.",
    responseSchema: walletNonceResponse,
    errors: [],
  },
  {
    method: "POST",
    path: "/api/auth/wallet",
    sessionOnly: true,
    tag: "Auth",
    auth: true,
    body: walletLinkBody,
    summary:
      "Link a wallet by signing the nonce message (SIWE-style). Payouts go only to a proven wallet.",
    responseSchema: userResponse,
    errors: [
      "400 invalid_request (the message: malformed, another domain or address, expired; the nonce: unknown, used or expired)",
      "401 invalid_signature",
      "409 wallet_taken",
    ],
  },
  {
    method: "GET",
    path: "/api/deals",
    query: dealListQuery,
    tag: "Deals",
    auth: true,
    summary:
      "The caller's deals, as brand or creator, a page at a time. `?open=1`: open deals a creator may take. `limit` 1..100 (default 20), `cursor` from `nextCursor` (rows inserted while paging never shift later pages); filters `status`, `platform`, `search` (title or description, case-insensitive substring); `sort` newest (default) | oldest | budget. Each deal's `brand` and `creator` carry `{ id, name }` (`name`: the display name, else the e-mail).",
    responseSchema: dealPageResponse,
    errors: ["403 wrong_role (open=1 as brand)"],
  },
  {
    method: "GET",
    path: "/api/profile",
    tag: "Auth",
    auth: true,
    summary: "The caller's profile: the display name shown on deals instead of the e-mail.",
    responseSchema: profileResponse,
    errors: ["404 not_found (the user was deleted)"],
  },
  {
    method: "PATCH",
    path: "/api/profile",
    sessionOnly: true,
    tag: "Auth",
    auth: true,
    body: profilePatchBody,
    summary:
      "Set the display name (an organisation's name, a creator's); null or an empty string removes it.",
    responseSchema: profileResponse,
    errors: ["404 not_found (the user was deleted)"],
  },
  {
    method: "POST",
    path: "/api/deals",
    tag: "Deals",
    auth: true,
    body: createDealBody,
    summary:
      "A brand creates a deal with its milestones (budget = sum of amounts). It is `unfunded` — invisible to creators — until the escrow holds the budget. Optional `deadline` (default 30 days): unreleased milestones are refundable to the brand after it plus 7 days. `disclosure` (default `{ required: true }`): every post must carry #ad, #sponsored or #paidpartnership within its first 125 characters, or the platform's paid-partnership label (FTC guidance); `{ required: false, reason }` turns it off, the reason shown to the creator.",
    status: 201,
    responseSchema: dealResponse,
    errors: ["403 wrong_role"],
  },
  {
    method: "GET",
    path: "/api/deals/{id}",
    tag: "Deals",
    auth: true,
    summary: "One deal with its milestones (its parties; open deals to anyone signed in).",
    responseSchema: dealDetailResponse,
    errors: ["400 invalid_request", "404 not_found"],
  },
  {
    method: "PATCH",
    path: "/api/deals/{id}",
    tag: "Deals",
    auth: true,
    body: editDealBody,
    summary:
      "The brand edits a deal nobody has taken; fields left out stay, `milestones` replaces the list. Unfunded: everything may change (the escrow is read first; a funding nobody reported opens the deal and the funded rules apply). Funded (`open`): the escrow holds the deadline and each milestone's amount — those (and the number of milestones) must stay; names, due dates within the deadline, requirements, title, description, platform, minimum score, auto-settle threshold (`autoSettleConfidence`), review window, disclosure rule (`{ required: false, reason }` to turn it off) and invite may change. One `edited` event names the fields changed; nothing changed, no event.",
    responseSchema: dealResponse,
    errors: [
      "400 invalid_request",
      "403 forbidden (the deal's creator or a creator it is offered to)",
      "404 not_found",
      "409 deal_not_editable (taken, cancelled, completed or expired) | terms_locked (funded: amounts, milestone count, deadline) | invalid_state (the escrow holds other terms) | funding_in_progress (a relayed funding holds the deal: amounts and deadline wait)",
      "502 chain_unavailable (unfunded: the escrow could not be read)",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/accept",
    tag: "Deals",
    auth: true,
    body: acceptBody,
    summary:
      "A creator takes an open (funded) deal, in the version of its terms they reviewed (`termsVersion`, optional); of two racing creators one wins. Their proven wallet is recorded in the escrow as the payee; from then on the brand cannot cancel.",
    responseSchema: dealResponse,
    errors: [
      "403 wrong_role | forbidden",
      "404 not_found",
      "409 invalid_state (taken, or cancelled by the brand) | wallet_required | terms_changed (the brand edited the deal after that termsVersion)",
      "502 chain_unavailable (retry finishes the on-chain assignment)",
    ],
  },
  {
    method: "GET",
    path: "/api/deals/{id}/events",
    query: pageQuery,
    tag: "Deals",
    auth: true,
    summary:
      "The deal's activity log, oldest first: created, funded, taken, submitted, verified, rejected, approved, paid, refunded, cancelled, expired, completed — each written in the same transaction as its change. `limit` 1..100 (default 20), `cursor` from `nextCursor`.",
    responseSchema: dealEventPageResponse,
    errors: ["404 not_found (not a party)"],
  },
  {
    method: "GET",
    path: "/api/deals/{id}/messages",
    query: pageQuery,
    tag: "Deals",
    auth: true,
    summary:
      "The thread between the deal's brand and its creator, newest first, with the caller's `unreadCount` (the other party's messages after the caller's read marker). Bodies are plain text: render them as text. `limit` 1..100 (default 20), `cursor` from `nextCursor` (older messages).",
    responseSchema: messagePageResponse,
    errors: ["404 not_found (not a party)"],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/messages",
    tag: "Deals",
    auth: true,
    body: messageBody,
    form: messageUploadBody,
    summary:
      "Write to the other party of the deal: plain text, 1–4,000 characters (trimmed), as JSON; or with one file as multipart/form-data (`body`, `file`): a JPEG, PNG or WebP image or an MP4, MOV or WebM video, its real type read from its bytes, its size limited per kind (10 MB image, 100 MB video by default) and its metadata removed before it is stored. At most 20 messages a minute and 200 an hour per person, across every deal and every instance of the app. Records `message.created` (the other party's inbox, e-mail and webhooks; the deal's timeline). Sending reads the thread up to the new message.",
    status: 201,
    responseSchema: messageResponse,
    errors: [
      "400 invalid_request (an empty or over-long body)",
      "404 not_found (not a party)",
      "409 invalid_state (nobody has taken the deal yet)",
      "413 payload_too_large (past the limit of the file's kind)",
      "415 unsupported_media_type (a type not accepted, or a file whose bytes contradict its declared type)",
      "429 rate_limited (with Retry-After)",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/bonuses",
    tag: "Deals",
    auth: true,
    body: createBonusBody,
    summary:
      "The brand rewards the creator beyond the milestones: a bonus of `amount` USDC base units (1 to 1,000,000 USDC, as a string) with a plain-text message (1–1,000 characters), once a milestone of the deal is paid. A bonus is its own escrow deal (its ref is the bonus's id) with one milestone of the amount and the deal's creator: fund it exactly like a deal under the bonus's id (`funding`: GET /api/deals/{bonusId}/funding for the terms, then your wallet's `fund` and POST …/funding, a gasless POST …/funding/authorization, or its deposit address), then release it (POST …/bonuses/{bonusId}/release). Nothing moves until it is funded. A bonus never changes the creator's reputation: reputation follows verdicts only. Honours Idempotency-Key.",
    status: 201,
    responseSchema: bonusResponse,
    errors: [
      "400 invalid_request (amount not a whole number of base units, zero, or over 1,000,000 USDC; message empty or over 1,000 characters; a malformed Idempotency-Key)",
      "403 forbidden (the creator: only the brand sends a bonus)",
      "404 not_found (not a party)",
      "409 invalid_state (no milestone of the deal is paid yet, or nobody took the deal)",
    ],
  },
  {
    method: "GET",
    path: "/api/deals/{id}/bonuses",
    tag: "Deals",
    auth: true,
    summary:
      "The deal's bonuses, newest first: every one to the brand, the funded ones to the creator. `limit` 1..100 (default 20), `cursor` from `nextCursor`.",
    query: pageQuery,
    responseSchema: bonusListResponse,
    errors: ["404 not_found (not a party)"],
  },
  {
    method: "GET",
    path: "/api/deals/{id}/bonuses/{bonusId}",
    tag: "Deals",
    auth: true,
    summary: "One bonus: poll it while it is `paying`.",
    responseSchema: bonusResponse,
    errors: ["404 not_found"],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/bonuses/{bonusId}/release",
    tag: "Deals",
    auth: true,
    summary:
      "The brand funded the bonus: the escrow is read (a funding not reported yet is found, as POST …/funding does), the creator is assigned to the bonus's escrow deal, and the service's evaluator releases it at 100 % with the bonus record's hash — exactly once, however often or concurrently this is called; reconcile finishes a release a request left behind. Records `bonus.paid` on the deal (both parties' timelines, inboxes, e-mail and webhooks). Honours Idempotency-Key.",
    responseSchema: bonusReleaseResponse,
    errors: [
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 not_funded (the escrow holds nothing for the bonus yet) | invalid_state (cancelled, or its money went back to the brand) | settlement_in_progress (another call is paying it right now)",
      "502 chain_unavailable (nothing lost: call again)",
    ],
  },
  {
    method: "GET",
    path: "/api/deals/{id}/messages/{messageId}/attachment",
    tag: "Deals",
    auth: true,
    summary:
      "A message's file, streamed to the deal's two parties only: private, never cached by others, never sniffed into another type, sandboxed if opened on its own.",
    responseSchema: fileResponse,
    errors: ["404 not_found (not a party, no such message, or no file)"],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/messages/read",
    tag: "Deals",
    auth: true,
    body: messagesReadBody,
    summary:
      "Marks the thread read up to `upTo` (a message of this deal), or all of it; the marker never moves back.",
    responseSchema: messagesReadResponse,
    errors: [
      "400 invalid_request",
      "404 not_found (not a party, or upTo is not a message of this deal)",
    ],
  },
  {
    method: "GET",
    path: "/api/events",
    query: eventListQuery,
    tag: "Events",
    auth: true,
    summary:
      "Every event of the deals you are a party of, as webhooks deliver them: `data.object` is the deal or milestone as it was right after the event, `data.previous_attributes` the fields a change changed, with their values before. Newest first with cursor pages; filter by `type` and by `object` (a deal's or milestone's id). `order=asc` replays oldest first from `cursor` or `after` (an event id), and with `wait` (up to 30 s) holds the request until the next event: how `npm run listen` follows the account.",
    responseSchema: eventPageResponse,
    errors: ["404 not_found (after: no such event of yours)"],
  },
  {
    method: "GET",
    path: "/api/deals/{id}/funding",
    query: fundingTermsQuery,
    tag: "Escrow",
    auth: true,
    summary:
      "The brand's funding terms: approve `total` to `escrow`, then call `fund(dealRef, evaluator, deadline, amounts)` from the funding wallet. The escrow keys the deal by its funder (`dealKey = keccak256(abi.encode(funder, dealRef))`), so nobody else can fund or cancel it. `?brand=0x…` gives that wallet's `dealKey` and the nonce a gasless EIP-3009 authorization must carry.",
    responseSchema: fundingTermsResponse,
    errors: [
      "403 forbidden (not the brand)",
      "404 not_found",
      "503 not_configured (no escrow or USDC on this chain)",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/funding",
    tag: "Escrow",
    auth: true,
    body: fundingReportBody,
    summary:
      "Report a funding: `brand`, the wallet it came from (kept for the deal; default: the one named before, else the account's linked wallet), and optionally `txHash`. The server reads the escrow's deal under that wallet's key (evaluator, deadline and amounts) and never trusts the hash; the deal becomes `open`. A funding by any other wallet is not this deal's. Fundings nobody reports are found by reconciliation under the same wallet.",
    responseSchema: dealResponse,
    errors: [
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 not_funded | invalid_state (funded with other terms)",
      "502 chain_unavailable",
      "503 not_configured",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/funding/deposit",
    tag: "Escrow",
    auth: true,
    body: depositRequestBody,
    summary:
      "Funding without a wallet: the deal's deposit address. Anyone sends exactly `amount` USDC to `address` (any wallet, an exchange withdrawal; `paymentUri` is its EIP-681 URI for a QR code). The address is a forwarder deployed with CREATE2 whose address binds this deal's ref, its terms and `refundAddress`: its only moves are funding this deal in the escrow (under dealKey(forwarder, dealRef), which nobody else can create) and returning money to `refundAddress`; anyone may trigger them, and the service never holds the money. Reconciliation watches it: `deposit.received` (under-paid: send the rest), then the sweep opens the deal (`funded`, with any over-payment returned to `refundAddress`); a deposit to a cancelled or expired deal, or a late top-up, is returned (`funding.returned`). `refundAddress` (default: the one named before, else your wallet) also receives every unreleased amount; it can change only while the address holds nothing (read on-chain; under 0.01 USDC of dust does not count). A replaced address is kept and watched until the deadline plus the grace period: what it receives goes back to its own refund address (`funding.returned`, reason `address_replaced`). GET …/funding shows the same block as `deposit`.",
    responseSchema: depositResponse,
    errors: [
      "400 invalid_request (refundAddress: not an address, a mixed-case address with a wrong EIP-55 checksum, the zero address, the escrow, the deposit factory, the USDC token or the deal's own deposit address)",
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 wallet_required (no refundAddress and no wallet on the account) | invalid_state (the address already holds money, or the deal is past funding)",
      "503 not_configured (no deposit factory on this chain)",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/funding/authorization",
    tag: "Escrow",
    auth: true,
    body: fundingAuthorizationBody,
    summary:
      "Gasless funding: the brand's signed EIP-3009 ReceiveWithAuthorization (nonce from GET …/funding?brand=) is submitted by the relayer, which pays the gas. A replay moves nothing.",
    responseSchema: fundingAuthorizationResponse,
    errors: [
      "401 invalid_signature (malformed, or refused by the escrow and nothing was moved; an authorization that funded the deal answers 200 on every retry)",
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 invalid_state (funded with other terms; or cancelled, nothing sent) | funding_in_progress (another wallet's funding holds the deal)",
      "502 chain_unavailable (the node did not answer; retrying is safe: the authorization moves money once) | relay_unavailable",
      "503 not_configured (no relayer)",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/cancel",
    tag: "Escrow",
    auth: true,
    body: txHashBody,
    summary:
      "End a deal nobody has taken. Unfunded: at once. Funded: only the brand's own `cancel(dealKey)` call to the escrow returns the money; this confirms it from the chain.",
    responseSchema: dealResponse,
    errors: [
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 invalid_state (taken; or not yet cancelled on-chain — details say what to call) | funding_in_progress (a relayed funding holds the deal until it is settled)",
      "502 chain_unavailable",
      "503 not_configured",
    ],
  },
  {
    method: "POST",
    path: "/api/deals/{id}/refund",
    tag: "Escrow",
    auth: true,
    summary:
      "After the deadline plus 7 days, every milestone still locked goes back to the brand (refundExpired; the service pays the gas). Safe to repeat.",
    responseSchema: dealResponse,
    errors: [
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 invalid_state (too early) | not_funded",
      "502 chain_unavailable",
      "503 not_configured",
    ],
  },
  {
    method: "POST",
    path: "/api/faucet/test-usdc",
    tag: "Escrow",
    auth: true,
    body: addressBody,
    summary:
      "Local chain only: 1,000 test USDC and gas for a brand's wallet, to fund escrows with one click. Answers 202 with `poll` when the chain has not confirmed the mint within CHAIN_BUDGET_SECONDS (reconcile finishes it).",
    responseSchema: testFundsResponse,
    errors: [
      "403 faucet_disabled (not the local chain)",
      "502 chain_unavailable",
      "503 not_configured",
    ],
  },
  {
    method: "GET",
    path: "/api/faucet/test-usdc",
    tag: "Escrow",
    auth: true,
    query: addressBody,
    summary:
      "Local chain only: the caller's latest mint to this address as it stands (what a 202's `poll` names): its status follows its transaction, which reconcile finishes. Sends nothing.",
    responseSchema: testFundsResponse,
    errors: [
      "403 faucet_disabled (not the local chain)",
      "404 not_found (no mint there by this caller)",
    ],
  },
  {
    method: "GET",
    path: "/api/milestones/{id}",
    tag: "Deals",
    auth: true,
    summary: "A milestone with its deliverables, verdicts and settlement.",
    responseSchema: milestoneDetailResponse,
    errors: ["404 not_found"],
  },
  {
    method: "PATCH",
    path: "/api/milestones/{id}",
    tag: "Deals",
    auth: true,
    body: milestonePatchBody,
    summary:
      "The deal's brand changes the milestone's metadata (merged; a key sent with \"\" is removed), in any status.",
    responseSchema: milestoneDetailResponse,
    errors: ["403 forbidden (the deal's creator)", "404 not_found"],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/deliverable",
    tag: "Deals",
    auth: true,
    body: deliverableBody,
    summary: "The deal's creator submits a deliverable (a new revision; from pending or rejected).",
    status: 201,
    responseSchema: milestoneDetailResponse,
    errors: [
      "403 forbidden (not the deal's creator)",
      "404 not_found",
      "409 invalid_state | evidence_already_used (the post is already another milestone's deliverable; a post can be paid once)",
    ],
  },
  {
    method: "POST",
    path: "/api/verify",
    tag: "Verification and settlement",
    auth: true,
    body: verifyBody,
    summary:
      "AI verification of the current deliverable (either party). One model call per revision; repeats return the stored verdict.",
    responseSchema: verdictSchema,
    errors: [
      "404 not_found",
      "409 no_deliverable | invalid_state | changes_requested (the brand sent this revision back)",
      "502 verifier_unavailable",
    ],
  },
  {
    method: "POST",
    path: "/api/settle",
    tag: "Verification and settlement",
    auth: true,
    body: settleRequestBody,
    summary:
      'Verify → gate (approved && score ≥ minScore) → approve → one escrow release: floor(amount × score) USDC to the creator and the rest of the milestone back to the brand, carrying the verdict record\'s hash — exactly once. Answers 202 with `outcome: "submitted"`, the settlement as it stands and `poll` when the release was sent but not confirmed within CHAIN_BUDGET_SECONDS, or recorded and the node failed after: reconcile (or settling again) finishes it with the same signed bytes. Honours Idempotency-Key. Bulk: `{ milestoneIds: [...] }` (1–100 distinct ids, with the same via and minScore) settles each exactly as the single form would — the same scopes, owner checks, gate and exactly-once claim — and answers 200 with one result per id, in order, within one CHAIN_BUDGET_SECONDS; a repeat pays nothing twice. The milestones it pays are released together, in one escrow transaction (releaseBatch), the `logIndex` of each settlement naming its Released event in `txHash`. Example: `{ "milestoneIds": ["…a", "…b"] }` → `{ "results": [{ "milestoneId": "…a", "outcome": "paid", "settlement": {…} }, { "milestoneId": "…b", "outcome": "refused", "error": { "code": "needs_decision", "message": "…" } }] }`.',
    responseSchema: settleAnswer,
    errors: [
      "400 invalid_request (a malformed Idempotency-Key; bulk: no ids, more than 100, an id named twice, an id not a UUID)",
      "403 forbidden (the creator may settle only after the review window; never with minScore)",
      "404 not_found",
      "409 no_deliverable | changes_requested (the brand sent the revision back; settle the next one) | already_settled | settlement_in_progress | not_funded | invalid_state | review_window_open | evidence_already_used (the post, or its canonical URL, was paid for another milestone) | needs_decision (the brand's settle only: the verdict's confidence is below the deal's `autoSettleConfidence`, or a criterion nobody judged; details { confidence, threshold, verdict }: the brand decides)",
      "422 idempotency_key_reused",
      "502 verifier_unavailable | chain_unavailable (nothing was sent) | relay_unavailable (retry resumes)",
      "503 not_configured (relay)",
    ],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/decision",
    tag: "Verification and settlement",
    auth: true,
    body: decisionBody,
    summary:
      "The brand decides on a rejected or unsettled revision: pay floor(amount × score) through the same escrow release as settle (the decision record's hash on-chain), or uphold the rejection — always with a reason. One decision per revision; answers an open appeal. Honours Idempotency-Key.",
    responseSchema: decisionResponse,
    errors: [
      "400 invalid_request (score required to approve, 0 < score ≤ 1; reason of 3+ characters; a malformed Idempotency-Key)",
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 already_decided | already_settled | settlement_in_progress | no_deliverable | changes_requested | invalid_state | evidence_already_used",
      "422 idempotency_key_reused",
      "502 chain_unavailable | relay_unavailable (decision kept; the payment resumes)",
      "503 not_configured (relay)",
    ],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/appeal",
    tag: "Verification and settlement",
    auth: true,
    body: appealBody,
    summary:
      "The creator appeals a rejected revision, with a reason; the brand answers with a decision.",
    status: 201,
    responseSchema: appealResponse,
    errors: [
      "400 invalid_request",
      "403 forbidden (not the creator)",
      "404 not_found",
      "409 appeal_exists | already_decided | invalid_state (only a rejection can be appealed)",
    ],
  },
  {
    method: "POST",
    path: "/api/uploads",
    tag: "Drafts",
    auth: true,
    body: uploadTicketBody,
    summary:
      "A URL to send one file (a draft's image or video) straight to the bucket, so a large video never passes through the app (a serverless host caps request bodies: Vercel at 4.5 MB). PUT exactly `size` bytes with the given headers within 15 minutes, then name the returned `id` as `upload` when sending the draft: the file is then checked (its real type, its size by kind) and its metadata removed, exactly as a form upload. Only where uploads are kept in a bucket (S3_BUCKET); the embedded setup answers 503 not_configured and takes the file in the draft's form. 60 a minute per person.",
    status: 201,
    responseSchema: uploadTicketSchema,
    errors: [
      "400 invalid_request (a type not accepted; size a positive whole number)",
      "413 payload_too_large (past the limit of the type's kind)",
      "429 rate_limited",
      "503 not_configured (uploads are kept on the server's disk: send the file in the form)",
    ],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/drafts",
    tag: "Drafts",
    auth: true,
    body: draftBody,
    form: draftUploadBody,
    summary:
      "The creator sends a draft of the post before publishing it: the caption, and the media as a file (multipart/form-data: `caption`, `link`, `file`), as a file sent straight to the bucket beforehand (JSON `upload`: see POST /api/uploads) or a link (JSON or form). Each draft is a new revision; one still waiting for the brand is superseded. The milestone's hashtags, mentions and links are checked on the caption at once (`check`). A file's real type is read from its bytes (JPEG, PNG, WebP; MP4, MOV, WebM), its size limited per kind (10 MB image, 100 MB video by default) and its metadata removed before it is stored. 30 a minute per creator. Records `draft.submitted`.",
    status: 201,
    responseSchema: draftResponse,
    errors: [
      "400 invalid_request (caption 1–5000 characters, link an http or https URL, the media one way only, an `upload` that is not the caller's or was never sent)",
      "403 forbidden (not the creator)",
      "404 not_found",
      "409 invalid_state (the deal is not active, or the post is already submitted)",
      "413 payload_too_large (past the limit of the file's kind)",
      "415 unsupported_media_type (a type not accepted, or a file whose bytes contradict its declared type)",
    ],
  },
  {
    method: "GET",
    path: "/api/milestones/{id}/drafts",
    tag: "Drafts",
    auth: true,
    query: draftListQuery,
    summary:
      "The milestone's drafts, newest revision first, each with the brand's answer and the rule checks on its caption as they stand now. The deal's two parties only.",
    responseSchema: draftPageResponse,
    errors: ["404 not_found"],
  },
  {
    method: "GET",
    path: "/api/milestones/{id}/drafts/{draftId}",
    tag: "Drafts",
    auth: true,
    summary: "One draft. The deal's two parties only.",
    responseSchema: draftResponse,
    errors: ["404 not_found"],
  },
  {
    method: "GET",
    path: "/api/milestones/{id}/drafts/{draftId}/media",
    tag: "Drafts",
    auth: true,
    summary:
      "The draft's file, streamed by the app to the deal's two parties only (never a public bucket URL): its stored type, `Cache-Control: private, no-store`, `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy.",
    responseSchema: fileResponse,
    errors: ["404 not_found (no such draft, no file, or not a party)"],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/drafts/{draftId}/approve",
    tag: "Drafts",
    auth: true,
    summary:
      "The brand approves a draft waiting for it. Exactly once: of concurrent or repeated approvals one records `draft.approved`, the rest answer the approved draft. The live post must then match its caption: the verifier lists the differences under `missing` when the post's caption is less than DRAFT_MATCH_MIN_SIMILARITY (0.9) the same.",
    responseSchema: draftResponse,
    errors: [
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 invalid_state (changes were requested on it, or a newer revision replaced it; the deal is not active)",
    ],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/drafts/{draftId}/request-changes",
    tag: "Drafts",
    auth: true,
    body: changesBody,
    summary:
      "The brand asks for changes to a draft waiting for it, with a message; the creator answers with a new revision. Once: a repeat answers the draft as it is. Records `draft.changes_requested`.",
    responseSchema: draftResponse,
    errors: [
      "400 invalid_request (a message of 3–2000 characters)",
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 invalid_state (already approved, or replaced by a newer revision; the deal is not active)",
    ],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/request-changes",
    tag: "Verification and settlement",
    auth: true,
    body: requestChangesBody,
    summary:
      "The brand sends a submission awaiting review back to the creator with a message (plain text, 1–2,000 characters). The milestone goes back to pending with no verdict: nothing is paid, refunded or recorded against the creator's reputation; the next submission is a new revision with its own review window, and the revision sent back can no longer be verified, settled or decided. A settle that claimed the milestone first wins (409). Emits milestone.changes_requested. Honours Idempotency-Key.",
    status: 201,
    responseSchema: changeRequestResponse,
    errors: [
      "400 invalid_request (an empty or over-long message; a malformed Idempotency-Key)",
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 changes_already_requested | already_settled | settlement_in_progress | no_deliverable | invalid_state (rejected, or the deal is not active)",
      "422 idempotency_key_reused",
    ],
  },
  {
    method: "POST",
    path: "/api/milestones/{id}/refund",
    tag: "Verification and settlement",
    auth: true,
    body: refundMilestoneBody,
    summary:
      "The brand takes back a milestone past its due date with nothing delivered: an escrow release paying the creator 0 and the brand the whole milestone. Honours Idempotency-Key.",
    responseSchema: decisionResponse,
    errors: [
      "400 invalid_request (a malformed Idempotency-Key)",
      "403 forbidden (not the brand)",
      "404 not_found",
      "409 invalid_state (not overdue, or delivered) | settlement_in_progress | already_settled",
      "422 idempotency_key_reused",
      "502 chain_unavailable | relay_unavailable (retry resumes)",
      "503 not_configured (relay)",
    ],
  },
  {
    method: "GET",
    path: "/api/relay/status",
    query: relayStatusQuery,
    tag: "Verification and settlement",
    auth: false,
    summary: "Whether relayed (gasless) settlement is configured; `?chainId=`.",
    responseSchema: relayStatusResponse,
    errors: [],
  },
  {
    method: "POST",
    path: "/api/faucet/drip",
    tag: "Chain",
    auth: true,
    body: addressBody,
    summary: "One-time 2.00 USDC testnet drip per address and per user.",
    responseSchema: dripResponse,
    errors: [
      "400 invalid_request (the zero address)",
      "403 faucet_disabled",
      "409 conflict (busy with this address; retry)",
      "502 chain_unavailable (retry resumes)",
      "503 not_configured | unavailable (treasury empty)",
    ],
  },
  {
    method: "GET",
    path: "/api/faucet/drip",
    tag: "Chain",
    auth: true,
    query: addressBody,
    summary:
      "The caller's drip as it stands (what a 202's `poll` names): its status follows its transaction, which reconcile finishes. Sends nothing.",
    responseSchema: dripResponse,
    errors: [
      "404 not_found (no drip for this caller)",
      "409 conflict (its transfer is being recorded right now; retry)",
    ],
  },
  {
    method: "GET",
    path: "/api/wallet",
    tag: "Chain",
    auth: true,
    summary:
      "The wallets holding your USDC — the signed-in (embedded) wallet, the linked wallet, and a brand's funding wallets — each with its balance read on-chain, and your latest sends.",
    responseSchema: walletOverviewResponse,
    errors: ["502 chain_unavailable"],
  },
  {
    method: "POST",
    path: "/api/wallet/withdrawals",
    tag: "Chain",
    auth: true,
    body: withdrawalBody,
    summary:
      "Send USDC from your signed-in (embedded) wallet to an address, e.g. an exchange deposit address. The wallet signs a USDC transfer authorization (EIP-3009) and the service's relayer submits it and pays the network fee. Never more than the balance; Idempotency-Key honoured.",
    responseSchema: withdrawalResponse,
    errors: [
      "400 invalid_request (to: bad checksum, the zero address, your own wallet, or one of the service's contracts; amount not above 0)",
      "409 wallet_required (no embedded wallet) | insufficient_funds (details.available) | settlement_in_progress (same Idempotency-Key still running)",
      "422 idempotency_key_reused",
      "502 chain_unavailable (refused: nothing was sent; retry)",
      "503 not_configured (no embedded-wallet signer or relayer key)",
    ],
  },
  {
    method: "GET",
    path: "/api/reputation/{wallet}",
    tag: "Chain",
    auth: true,
    summary: "On-chain reputation: settled milestones and their mean score.",
    responseSchema: reputationResponse,
    errors: ["502 chain_unavailable", "503 not_configured (no registry)"],
  },
  {
    method: "POST",
    path: "/api/demo/unlock",
    tag: "Demo",
    auth: false,
    body: unlockBody,
    summary: "Exchange the demo passphrase for an unlock cookie.",
    responseSchema: unlockedResponse,
    errors: [
      "401 invalid_passphrase",
      "404 not_found (no demo gate)",
      "429 rate_limited (attempts per client)",
    ],
  },
  {
    method: "POST",
    path: "/api/demo/ensure-deals",
    tag: "Demo",
    auth: true,
    summary: "Seed the three starter deals for the calling brand, once.",
    status: 201,
    responseSchema: starterDealsResponse,
    errors: ["403 wrong_role"],
  },
  {
    method: "GET",
    path: "/api/health",
    tag: "Operations",
    auth: false,
    query: healthQuery,
    summary:
      "Database and chain reachability. With ?detail=1 and the cron secret as bearer (operators): queue depths (e-mails, webhook deliveries, unmined transactions), the oldest unmined transaction's age, and the signer's balance against SIGNER_BALANCE_FLOOR_WEI.",
    responseSchema: healthResponse,
    errors: [
      "401 unauthenticated (detail=1 without the cron secret)",
      "503 unavailable (details name what is down)",
    ],
  },
  {
    method: "GET",
    path: "/api/cron/reconcile",
    tag: "Operations",
    auth: "cron",
    query: reconcileQuery,
    summary:
      "The reconcile routine (a scheduler calls it with `Authorization: Bearer <CRON_SECRET>`): finishes settlements and transactions left pending, notices unreported fundings, records reputation, sends webhook deliveries and e-mails due, runs out review windows. `?settlement=` finishes just that settlement.",
    responseSchema: reconcileResponse,
    errors: ["401 unauthenticated (no or another cron secret)", "503 not_configured (CRON_SECRET)"],
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    tag: "Operations",
    auth: false,
    summary: "This reference as OpenAPI 3.1 (rendered at /docs).",
    responseSchema: openApiDocumentResponse,
    errors: [],
  },
  ...notificationAndWebhookEndpoints(),
  ...apiKeyEndpoints(),
  ...evidenceEndpoints(),
  ...chainAndLedgerEndpoints(),
];

// What an integrator needs of the chain (lib/chain/integrator-info.ts), and the money
// records of a user's deals (lib/ledger).
function chainAndLedgerEndpoints(): Endpoint[] {
  return [
    {
      method: "GET",
      path: "/api/chain",
      tag: "Chain",
      auth: false,
      summary:
        "The chain this deployment settles on, for integrators: chain id and name, a public JSON-RPC URL (the local node on the local chain; never the service's own RPC_URL), the USDC and escrow addresses, USDC's EIP-712 domain `{ name, version }` as the token reports it (eip712Domain(), else name() and version(): what a gasless funding authorization is signed under, with `chainId` and `verifyingContract: usdc`), and how many confirmations the service waits for.",
      responseSchema: chainInfoResponse,
      errors: [
        "502 chain_unavailable (reading the token's domain)",
        "503 not_configured (no USDC or escrow on this deployment)",
      ],
    },
    {
      method: "GET",
      path: "/api/ledger",
      query: ledgerQuery,
      tag: "Ledger",
      auth: true,
      summary:
        "The caller's money records across all their deals, newest first: every funding (brand wallet → escrow), release (escrow → creator; the brand's and the creator's), refund (`reason`: remainder of a release, cancel, expired) and withdrawal (USDC sent out of the caller's embedded wallet, once confirmed; `deal: null`), with the amount (6 decimals), the parties, the transaction and its explorer link, and for releases the verdict hash the release carried. A brand sees its fundings, releases and refunds; a creator the releases it received; everyone their own withdrawals. Filters `kind`, `dealId`, `from`, `to` (dates, UTC; `to` includes its day); `?limit=1..100&cursor=`; `format=csv` answers the whole filtered ledger as GET /api/ledger.csv does.",
      responseSchema: ledgerPageResponse,
      errors: [],
    },
    {
      method: "GET",
      path: "/api/ledger.csv",
      query: ledgerCsvQuery,
      tag: "Ledger",
      auth: true,
      summary:
        "The caller's whole ledger (same filters, no paging) as CSV: `text/csv`, RFC 4180 (CRLF; a cell with a comma, quote or line break in double quotes), sent as an attachment. A cell that starts with = + - @ (a spreadsheet formula) is prefixed with an apostrophe.",
      responseSchema: ledgerCsvResponse,
      errors: [],
    },
  ];
}

// Evidence: the posts the verifier reads, the handles their authors must match, and the
// sandbox platform of the embedded setup (lib/verify/evidence, lib/profile, lib/social).
function evidenceEndpoints(): Endpoint[] {
  return [
    {
      method: "GET",
      path: "/api/milestones/{id}/evidence",
      tag: "Verification and settlement",
      auth: true,
      summary:
        "The posts the verifier read for this milestone, one per revision, newest first, paginated (parties only; `revision` picks one): status (ok | deleted | unreachable | blocked | unsupported), platform, canonical URL, author against the creator's declared handle, caption, content hash.",
      query: evidenceQuery,
      responseSchema: evidenceListResponse,
      errors: ["404 not_found (not a party)"],
    },
    {
      method: "POST",
      path: "/api/milestones/{id}/precheck",
      tag: "Verification and settlement",
      auth: true,
      body: precheckBody,
      summary:
        "The deal's creator checks a post before submitting it: the post at `url` is read as the verifier reads it and put through the rule checks (required hashtags, mentions and links in its caption, its author, the rule score and its deductions). Nothing is stored and no money moves; the verdict that counts is the one on the submitted revision. Rate-limited: 10 a minute per creator.",
      responseSchema: precheckResponse,
      errors: [
        "400 invalid_request",
        "403 forbidden (not the creator)",
        "404 not_found",
        "409 invalid_state (the deal is not active)",
        "429 rate_limited",
      ],
    },
    {
      method: "GET",
      path: "/api/profile/handles",
      tag: "Profile",
      auth: true,
      summary: "The caller's declared handle per platform.",
      responseSchema: handleListResponse,
      errors: [],
    },
    {
      method: "PUT",
      path: "/api/profile/handles",
      sessionOnly: true,
      tag: "Profile",
      auth: true,
      body: putHandleBody,
      summary:
        "Declare (or change) the caller's handle on a platform (instagram | tiktok | x | youtube | sandbox). A deliverable's post must be by this handle, verified, to be approved automatically. A new or changed handle is unverified and gets a one-time code (`verification.code`, valid 3 days); declaring the same handle again keeps its verification, or issues a new code once the old one expired.",
      responseSchema: handleResponse,
      errors: [
        "409 conflict (held by another account: verified by it, or on the sandbox declared by it)",
      ],
    },
    {
      method: "POST",
      path: "/api/profile/handles/verify",
      sessionOnly: true,
      tag: "Profile",
      auth: true,
      body: verifyHandleBody,
      summary:
        "Prove a declared handle is the caller's: publish a post by the handle whose text contains its `verification.code`, then send the post's URL. The post is read like a deliverable's (the sandbox, oEmbed, OpenGraph); the handle is verified when the post is on that platform, its author is the handle and its text holds the unexpired code. Until then a verdict on the handle's posts is `approved: false`. (A code in the profile bio and the platforms' OAuth are not read yet.)",
      responseSchema: handleResponse,
      errors: [
        "404 not_found (no such declared handle)",
        "409 conflict (another account verified it meanwhile)",
        "409 handle_unverified (details.reason: no_code | code_expired | post_unreadable | wrong_platform | wrong_author | code_missing | changed)",
      ],
    },
    {
      method: "DELETE",
      path: "/api/profile/handles",
      sessionOnly: true,
      query: deleteHandleQuery,
      tag: "Profile",
      auth: true,
      summary: "Remove the caller's handle on one platform (?platform=…).",
      status: 204,
      responseSchema: null,
      errors: ["404 not_found"],
    },
    {
      method: "POST",
      path: "/api/social/posts",
      tag: "Sandbox platform",
      auth: true,
      body: publishBody,
      summary:
        "Publish a post on the sandbox platform (embedded setup). The first post claims the handle as the caller's sandbox handle; later posts must use it. `paidPartnership: true` shows the sandbox's paid-partnership label, which the verifier accepts as the disclosure.",
      status: 201,
      responseSchema: sandboxPostResponse,
      errors: ["404 not_found (sandbox off)", "409 conflict (handle)"],
    },
    {
      method: "GET",
      path: "/api/social/posts",
      query: pageQuery,
      tag: "Sandbox platform",
      auth: true,
      summary: "The caller's sandbox posts, newest first.",
      responseSchema: sandboxPostPageResponse,
      errors: ["404 not_found (sandbox off)"],
    },
    {
      method: "DELETE",
      path: "/api/social/posts/{id}",
      tag: "Sandbox platform",
      auth: true,
      summary: "Delete one of the caller's sandbox posts (its oEmbed answers 404 from then on).",
      status: 204,
      responseSchema: null,
      errors: ["404 not_found"],
    },
    {
      method: "GET",
      path: "/api/social/oembed",
      query: oembedQuery,
      tag: "Sandbox platform",
      auth: false,
      summary: "oEmbed of a sandbox post (?url=…): what the verifier reads, as from any platform.",
      responseSchema: oembedResponse,
      errors: ["404 not_found (sandbox off, unknown or deleted post)"],
    },
  ];
}

// API keys (lib/auth/api-keys.ts). Managed with a session only (sessionOnly: an API key or
// a bare identity token gets 403 forbidden here).
function apiKeyEndpoints(): Endpoint[] {
  return [
    {
      method: "POST",
      path: "/api/keys",
      sessionOnly: true,
      tag: "API keys",
      auth: true,
      body: createApiKeyBody,
      summary:
        "Create an API key (mk_…) with scopes read | write | settle | webhooks and an optional expiry. The key is in this answer only; only its SHA-256 is stored.",
      status: 201,
      responseSchema: createdApiKeyResponse,
      errors: [],
    },
    {
      method: "GET",
      path: "/api/keys",
      sessionOnly: true,
      query: pageQuery,
      tag: "API keys",
      auth: true,
      summary:
        "The caller's keys, newest first, revoked ones included (never the secrets). Query ?limit=1..100&cursor=.",
      responseSchema: apiKeyPageResponse,
      errors: [],
    },
    {
      method: "PATCH",
      path: "/api/keys/{id}",
      sessionOnly: true,
      tag: "API keys",
      auth: true,
      body: updateApiKeyBody,
      summary:
        'Rename one of the caller\'s keys that is not revoked, re-pin its API version, or change its metadata (merged; a key sent with "" is removed).',
      responseSchema: apiKeyResponse,
      errors: ["404 not_found"],
    },
    {
      method: "DELETE",
      path: "/api/keys/{id}",
      sessionOnly: true,
      tag: "API keys",
      auth: true,
      summary: "Revoke one of the caller's keys: it is 401 invalid_token from the next request on.",
      responseSchema: apiKeyResponse,
      errors: ["404 not_found"],
    },
  ];
}

// The inbox and webhooks (lib/notify, lib/webhooks). How a receiver verifies a delivery's
// signature: /docs#webhooks and the README.
function notificationAndWebhookEndpoints(): Endpoint[] {
  const page = "?limit=1..100&cursor=";
  const notFound = "404 not_found";
  return [
    {
      method: "GET",
      path: "/api/notifications",
      query: notificationsQuery,
      tag: "Notifications",
      auth: true,
      summary: `The caller's inbox, newest first: the other party's (and the service's) actions on their deals. Query ${page}&unread=true.`,
      responseSchema: notificationPageResponse,
      errors: [],
    },
    {
      method: "GET",
      path: "/api/notifications/unread",
      tag: "Notifications",
      auth: true,
      summary: "How many of the caller's notifications are unread.",
      responseSchema: unreadCountResponse,
      errors: [],
    },
    {
      method: "POST",
      path: "/api/notifications/read",
      tag: "Notifications",
      auth: true,
      body: markReadBody,
      summary:
        "Mark notifications read: { ids } (the caller's own; others are ignored) or { all: true }.",
      responseSchema: markReadResponse,
      errors: [],
    },
    {
      method: "POST",
      path: "/api/webhooks",
      tag: "Webhooks",
      auth: true,
      body: createEndpointBody,
      summary:
        "Register an endpoint for the events of the caller's deals (all types, or the ones listed). The URL must be https on a public address. The signing secret is in this answer only.",
      status: 201,
      responseSchema: webhookSecretResponse,
      errors: [
        "400 invalid_request (incl. a private or non-https URL)",
        "409 conflict (20 endpoints)",
      ],
    },
    {
      method: "GET",
      path: "/api/webhooks",
      query: pageQuery,
      tag: "Webhooks",
      auth: true,
      summary: `The caller's endpoints, newest first (never their secrets). Query ${page}.`,
      responseSchema: webhookEndpointPageResponse,
      errors: [],
    },
    {
      method: "GET",
      path: "/api/webhooks/{id}",
      tag: "Webhooks",
      auth: true,
      summary:
        "One of the caller's endpoints. `disabledReason` is set when the service disabled it after persistent failure.",
      responseSchema: webhookEndpointResponse,
      errors: [notFound],
    },
    {
      method: "PATCH",
      path: "/api/webhooks/{id}",
      tag: "Webhooks",
      auth: true,
      body: updateEndpointBody,
      summary:
        "Change url or eventTypes, enable (clears the disabled notice) or disable (pending deliveries fail; resend brings them back).",
      responseSchema: webhookEndpointResponse,
      errors: ["400 invalid_request (incl. a private or non-https URL)", notFound],
    },
    {
      method: "DELETE",
      path: "/api/webhooks/{id}",
      tag: "Webhooks",
      auth: true,
      summary: "Remove an endpoint and its delivery log.",
      responseSchema: deletedResponse,
      errors: [notFound],
    },
    {
      method: "POST",
      path: "/api/webhooks/{id}/rotate-secret",
      tag: "Webhooks",
      auth: true,
      summary: "A new signing secret, in this answer only; the old one stops signing at once.",
      responseSchema: webhookSecretResponse,
      errors: [notFound],
    },
    {
      method: "GET",
      path: "/api/webhooks/{id}/deliveries",
      query: pageQuery,
      tag: "Webhooks",
      auth: true,
      summary: `The endpoint's delivery log, newest first, with status codes and errors. Resend one with POST /api/webhooks/{id}/deliveries/{deliveryId}/resend (202; refused with 409 invalid_state while the endpoint is disabled). Query ${page}.`,
      responseSchema: webhookDeliveryPageResponse,
      errors: [notFound],
    },
    {
      method: "POST",
      path: "/api/webhooks/{id}/deliveries/{deliveryId}/resend",
      tag: "Webhooks",
      auth: true,
      summary:
        "Queue a delivery again (also one already delivered: the receiver de-duplicates on the event id), due now with a fresh retry budget; it is sent right after this answer.",
      status: 202,
      responseSchema: webhookDeliveryResponse,
      errors: [
        "404 not_found (endpoint or delivery)",
        "409 invalid_state (the endpoint is disabled, or the delivery is being sent right now)",
      ],
    },
    {
      method: "POST",
      path: "/api/webhooks/{id}/test",
      tag: "Webhooks",
      auth: true,
      body: testEventBody,
      summary:
        "Send a test event of any type to this endpoint: shaped like a real event (`test: true`, a sample deal or milestone as `data.object`), signed, sent right after this answer and retried like any delivery; it shows in the delivery log with the request body and the receiver's answer.",
      status: 202,
      responseSchema: webhookDeliveryResponse,
      errors: ["404 not_found", "409 invalid_state (the endpoint is disabled)"],
    },
  ];
}

// The document is built by zod-openapi (a maintained zod 4 → OpenAPI 3.1 library) from the
// same zod schemas the handlers validate with: request bodies, path and query parameters and
// the success response. Every error an endpoint can answer becomes a response of its status,
// with the contract's error envelope: its own (`errors`) and those of its kind (`errorsOf`).

const errorEnvelope = errorEnvelopeSchema;

const isRead = (e: Endpoint) => e.method === "GET";

/** What each route declared (lib/http.ts routeAccess), by method and reference path. */
export type AccessLookup = (method: Endpoint["method"], path: string) => RouteAccess | undefined;

/**
 * The reference with each endpoint's API-key scope as its handler declares it in
 * `route({ scope })`: the one source, so the reference cannot drift from what is enforced.
 */
export function withScopes(list: Endpoint[], accessOf: AccessLookup): Endpoint[] {
  return list.map((e) => {
    const access = accessOf(e.method, e.path);
    return access?.auth === "api_key" ? { ...e, scope: access.scope } : { ...e, scope: undefined };
  });
}

/**
 * Every error the endpoint can answer: its own, then those route() and the authenticators
 * answer for any endpoint of its kind (lib/http.ts, lib/auth/caller.ts). A code the
 * endpoint's own list already names under that status is not repeated.
 */
export function errorsOf(e: Endpoint): string[] {
  const generic: string[] = [];
  if (e.body) {
    generic.push("400 invalid_json | invalid_request (the body)");
    generic.push("413 payload_too_large (over 64 KiB)");
    generic.push("415 unsupported_media_type (a body not sent as application/json)");
  }
  if (e.query || /\{\w+\}/.test(e.path))
    generic.push(`400 invalid_request (${e.query ? "the query" : "the path"})`);
  // route() refuses an unknown version before anything else runs, on every endpoint.
  generic.push(`400 invalid_request (an unknown ${VERSION_HEADER} header)`);
  if (e.auth === true) {
    generic.push("401 unauthenticated | invalid_token");
    generic.push(
      e.sessionOnly
        ? "403 forbidden (an API key or identity token: account and session management needs a session)"
        : `403 insufficient_scope (an API key without the ${e.scope ?? "needed"} scope)`,
    );
    if (!isRead(e)) generic.push("403 csrf_rejected (the session cookie, from another site)");
    if (!e.sessionOnly) generic.push("429 rate_limited (per API key and per user)");
  }
  generic.push("500 internal");
  const own = new Set(
    e.errors.flatMap((text) => {
      const [, status, codes] = /^(\d{3}) (.+)$/.exec(text.replace(/\([^)]*\)/g, "")) ?? [];
      return (codes ?? "").split("|").map((c) => `${status} ${c.trim()}`);
    }),
  );
  const added = generic.flatMap((text) => {
    const [, status, codes = "", note = ""] = /^(\d{3}) ([^(]+?)\s*(\(.*\))?$/.exec(text) ?? [];
    const left = codes
      .split("|")
      .map((c) => c.trim())
      .filter((c) => !own.has(`${status} ${c}`));
    return left.length ? [`${status} ${left.join(" | ")}${note ? ` ${note}` : ""}`] : [];
  });
  return [...e.errors, ...added];
}

function successStatus(e: Endpoint): string {
  return String(e.status ?? 200);
}

/** A key of an object schema as the summary shows it: `name`, `name?` (optional), `name: "value"`. */
function keyOf(key: string, value: z.ZodType): string {
  if (value instanceof z.ZodLiteral && value.values.size === 1)
    return `${key}: ${JSON.stringify([...value.values][0])}`;
  return value.safeParse(undefined).success ? `${key}?` : key;
}

function shapeSummary(schema: z.ZodType): string {
  if (schema instanceof z.ZodObject)
    return `{ ${Object.entries(schema.shape as Record<string, z.ZodType>)
      .map(([k, v]) => keyOf(k, v))
      .join(", ")} }`;
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion)
    return (schema.options as z.ZodType[]).map(shapeSummary).join(" | ");
  return schema.description ?? "text";
}

/**
 * The success answer in a line, read from its schema (the reference's response description
 * and /docs): "201 { deal }", "{ deals, nextCursor }", "204".
 */
export function responseSummary(e: Endpoint): string {
  if (!e.responseSchema) return successStatus(e);
  return `${e.status ? `${e.status} ` : ""}${shapeSummary(e.responseSchema)}`;
}

/** The endpoint's listed errors grouped by status ("401 unauthenticated" → 401). */
function errorResponses(errors: string[]): ZodOpenApiResponsesObject {
  const byStatus = new Map<string, string[]>();
  for (const text of errors) {
    const status = /^(\d{3})\b/.exec(text)?.[1] ?? "default";
    byStatus.set(status, [...(byStatus.get(status) ?? []), text]);
  }
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, texts] of byStatus)
    out[status as "default"] = {
      description: texts.join("; "),
      content: { "application/json": { schema: errorEnvelope } },
    };
  return out;
}

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join("");

/**
 * The operation's stable id, for generated SDKs' method names: the method and the path's
 * segments, a parameter as `By<Name>` (GET /api/deals/{id}/events → getDealsByIdEvents).
 * Derived from what never changes for a route, so it stays as long as the route does.
 */
export function operationIdOf(e: Pick<Endpoint, "method" | "path">): string {
  const words = e.path
    .split("/")
    .filter((s) => s && s !== "api")
    .map((s) => (/^\{\w+\}$/.test(s) ? `By${pascal(s.slice(1, -1))}` : pascal(s)));
  return `${e.method.toLowerCase()}${words.join("")}`;
}

/** The `Milestone-Version` request header every operation takes (lib/api/versions.ts). */
const versionHeader = z.object({
  [VERSION_HEADER]: z
    .enum(API_VERSIONS.map((v) => v.date) as [string, ...string[]])
    .optional()
    .meta({
      description: `The API version to answer in (see /docs#changelog). Default: the version the API key is pinned to, else the current one (${CURRENT_API_VERSION}). An unknown version is refused with 400 invalid_request.`,
    }),
});

function operationOf(e: Endpoint): ZodOpenApiOperationObject {
  const pathParams = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return {
    operationId: operationIdOf(e),
    tags: [e.tag],
    summary: e.summary,
    requestParams: {
      ...(pathParams.length
        ? { path: z.object(Object.fromEntries(pathParams.map((n) => [n, z.string()]))) }
        : {}),
      ...(e.query ? { query: e.query as z.ZodObject } : {}),
      header: versionHeader,
    },
    ...(e.auth === true
      ? {
          // OpenAPI 3.1 lets a bearer requirement list roles: the API-key scope it needs.
          security: e.sessionOnly
            ? [{ sessionBearer: [] }, { cookie: [] }]
            : [{ bearer: e.scope ? [e.scope] : [] }, { cookie: [] }],
        }
      : e.auth === "cron"
        ? { security: [{ cronSecret: [] }] }
        : // Public: says so (no credential), rather than leaving it unstated.
          { security: [] }),
    ...(e.body || e.form
      ? {
          requestBody: {
            required: true,
            content: {
              ...(e.body ? { "application/json": { schema: e.body } } : {}),
              ...(e.form ? { "multipart/form-data": { schema: e.form } } : {}),
            },
          },
        }
      : {}),
    responses: {
      [successStatus(e)]: {
        description: e.responseSchema ? shapeSummary(e.responseSchema) : "No content",
        ...(e.responseSchema
          ? { content: { "application/json": { schema: e.responseSchema } } }
          : {}),
      },
      ...errorResponses(errorsOf(e)),
    },
  };
}

/** The document, from the reference with its scopes (withScopes; app/api/reference.ts). */
export function openApiDocument(serverUrl: string, reference: Endpoint[]) {
  const paths: ZodOpenApiPathsObject = {};
  for (const e of reference)
    paths[e.path] = { ...paths[e.path], [e.method.toLowerCase()]: operationOf(e) };
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Milestone API",
      version: "1.0.0",
      description: "Milestone deals, AI verification and USDC settlement.",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key (mk_…, from /settings/keys or POST /api/keys; each operation lists the one scope it needs — read, write, settle (anything that moves money) or webhooks (webhook endpoints) — and a key without it gets 403 insufficient_scope), the session token from POST /api/auth/session, or the identity provider's ID token. API keys and ID tokens are rate-limited per key and per user: 429 rate_limited with Retry-After and RateLimit-* headers.",
        },
        sessionBearer: {
          type: "http",
          scheme: "bearer",
          description:
            "Account and session management (sign-out, role, wallet, profile, handles, API keys) takes a session only: the session token from POST /api/auth/session, or the cookie. An API key or a bare identity token is refused with 403 forbidden.",
        },
        cookie: { type: "apiKey", in: "cookie", name: "milestone.session-token" },
        cronSecret: {
          type: "http",
          scheme: "bearer",
          description: "The deployment's CRON_SECRET (GET /api/cron/reconcile only).",
        },
      },
    },
    paths,
  });
}
