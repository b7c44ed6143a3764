import type { z } from "zod";
import type { UserJson } from "@/lib/auth/users";
import type { ChainInfoJson } from "@/lib/chain/integrator-info";
import type { DealPage } from "@/lib/deals/deals";
import type { MilestoneDetailJson } from "@/lib/deals/milestones";
import type { createDealBody, dealListQuery, deliverableBody } from "@/lib/deals/schemas";
import type { DealJson, VerdictJson } from "@/lib/deals/serialize";
import type { ErrorCode } from "@/lib/errors";
import type { FundingTermsJson } from "@/lib/escrow/deals";
import type { DepositJson } from "@/lib/escrow/deposit";
import type { DealEventJson } from "@/lib/events/events";
import type { EventJson, eventListQuery } from "@/lib/events/objects";
import type { LedgerEntryJson, ledgerCsvQuery } from "@/lib/ledger/ledger";
import type { NotificationJson } from "@/lib/notify/inbox";
import type { MarkReadBody } from "@/lib/notify/schemas";
import type { DecideResult } from "@/lib/settle/decisions";
import type { AppealJson, DealDetailJson } from "@/lib/settle/review";
import type { decisionBody, settleBody } from "@/lib/settle/schemas";
import type { SettleResult } from "@/lib/settle/settle";
import type { ProfileJson } from "@/lib/users/profile";
import type { EvidenceJson } from "@/lib/verify/evidence/read";
import type { WalletOverviewJson, WithdrawalBody, WithdrawalJson } from "@/lib/wallet/schemas";
import type { WebhookDeliveryJson, WebhookEndpointJson } from "@/lib/webhooks/endpoints";
import type { createEndpointBody, updateEndpointBody } from "@/lib/webhooks/schemas";
import { type ErrorBody, errorEnvelope, readBody } from "./envelope";
import type { paths } from "./openapi-types";

// A thin typed client for the Milestone API: one method per endpoint a third party calls
// with an API key (account and session management is session-only, so not here), the request types
// from the zod schemas the handlers validate with, the response types the code builds (the
// ones lib/api/responses.ts documents). Any non-2xx answer throws an ApiError carrying the
// contract's error envelope. Its one runtime import is ./envelope (relative, and importing
// nothing itself); the rest are type-only: nothing of the server is bundled with it.
//
//   const api = createClient({ baseUrl: "https://milestone.example", apiKey: "mk_…" });
//   const { deal } = await api.createDeal({ title, platform, milestones });
//   for await (const d of api.allDeals({ status: "active" })) …

export type ClientOptions = {
  /** The service's origin, e.g. https://milestone.example (no trailing /api). */
  baseUrl: string;
  /** A fetch of your own (tests, retries, a proxy); default: the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
} & (
  | { /** An API key (mk_…). */ apiKey: string; token?: never }
  | { /** A session token or an identity token. */ token: string; apiKey?: never }
);

/** A non-2xx answer: the contract's error envelope, its status and its headers. */
export class ApiError extends Error {
  readonly code: ErrorCode | (string & {});
  readonly status: number;
  readonly details?: unknown;
  /** Seconds to wait (429 rate_limited), from Retry-After. */
  readonly retryAfter: number | null;
  /** The request's id (Request-Id): quote it when reporting a failed call. */
  readonly requestId: string | null;

  constructor(status: number, body: ErrorBody, headers?: Headers) {
    super(body.message);
    this.name = "ApiError";
    this.code = body.code;
    this.status = status;
    this.details = body.details;
    const retry = Number(headers?.get("retry-after") ?? Number.NaN);
    this.retryAfter = Number.isFinite(retry) ? retry : null;
    this.requestId = body.requestId ?? headers?.get("request-id") ?? null;
  }
}

export type DealListQuery = Partial<Omit<z.output<typeof dealListQuery>, "open" | "metadata">> & {
  /** Open deals a creator may take, instead of the caller's own. */
  open?: boolean;
  /** `key:value`: only deals whose metadata holds exactly this pair. */
  metadata?: string;
};
export type PageQuery = { limit?: number; cursor?: string };
export type LedgerFilters = z.input<typeof ledgerCsvQuery>;
export type CreateDealInput = z.input<typeof createDealBody>;
export type DeliverableInput = z.input<typeof deliverableBody>;
export type SettleInput = z.input<typeof settleBody>;
export type DecisionInput = z.input<typeof decisionBody>;
export type WebhookEndpointInput = z.input<typeof createEndpointBody>;
export type WebhookEndpointChange = z.input<typeof updateEndpointBody>;
export type EventListInput = Partial<z.output<typeof eventListQuery>>;
export type Paged<K extends string, T> = { [key in K]: T[] } & { nextCursor: string | null };
export type WriteOptions = {
  /** Sent as Idempotency-Key: a retry with the same key gets the first answer again. */
  idempotencyKey?: string;
};

type Query = Record<string, string | number | boolean | undefined>;

// ── Any endpoint by method and path, typed from the reference ──────────────────────────────
// `api.call("POST", "/api/deals/{id}/accept", { path: { id } })`: the path, query, body and
// answer types come from lib/api/openapi-types.ts, which openapi-typescript generates from
// the reference (so from the handlers' zod schemas). The named methods above are shortcuts.

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** The reference's paths that answer `M`. */
export type PathOf<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][Lowercase<M>] extends undefined ? never : P;
}[keyof paths];
type Operation<M extends HttpMethod, P extends PathOf<M>> = NonNullable<paths[P][Lowercase<M>]>;
type JsonOf<T> = T extends { content: { "application/json": infer B } } ? B : undefined;
type Parameters_<O> = O extends { parameters: infer X } ? X : never;
type PathInit<O> = Parameters_<O> extends { path: infer X } ? { path: X } : unknown;
type QueryInit<O> =
  Parameters_<O> extends { query: infer X }
    ? { query: X }
    : Parameters_<O> extends { query?: infer X }
      ? [NonNullable<X>] extends [never]
        ? unknown
        : { query?: NonNullable<X> }
      : unknown;
type BodyInit<O> = O extends { requestBody: infer B }
  ? { body: JsonOf<B> }
  : O extends { requestBody?: infer B }
    ? [NonNullable<B>] extends [never]
      ? unknown
      : { body?: JsonOf<NonNullable<B>> }
    : unknown;
/** What a call sends: path parameters, query and body as the reference types them. */
export type CallInit<M extends HttpMethod, P extends PathOf<M>> = PathInit<Operation<M, P>> &
  QueryInit<Operation<M, P>> &
  BodyInit<Operation<M, P>> & {
    /** `Milestone-Version`, `Idempotency-Key` or any other header for this call. */
    headers?: Record<string, string>;
  };
/** The success answer's body (200, 201 or 202; undefined for 204). */
export type CallResult<M extends HttpMethod, P extends PathOf<M>> =
  Operation<M, P> extends { responses: infer R }
    ? JsonOf<R[Extract<keyof R, 200 | 201 | 202 | 204>]>
    : never;
type InitArgs<I> = object extends I ? [init?: I] : [init: I];

export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");
  const credential = options.apiKey ?? options.token;

  async function request<T>(
    method: string,
    path: string,
    opts: {
      query?: Query;
      body?: unknown;
      idempotencyKey?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<T> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers = new Headers({ ...options.headers, ...opts.headers });
    headers.set("accept", "application/json");
    headers.set("authorization", `Bearer ${credential}`);
    if (opts.body !== undefined) headers.set("content-type", "application/json");
    if (opts.idempotencyKey) headers.set("idempotency-key", opts.idempotencyKey);
    const res = await doFetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const { text, json } = await readBody(res);
    if (!res.ok)
      throw new ApiError(
        res.status,
        errorEnvelope(json) ?? {
          code: "unexpected_response",
          message: `HTTP ${res.status}: ${text.slice(0, 200)}`,
        },
        res.headers,
      );
    return json as T;
  }

  /** A GET answered with text (the CSV export); errors still come as the JSON envelope. */
  async function requestText(path: string, query: Query = {}): Promise<string> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers = new Headers(options.headers);
    headers.set("authorization", `Bearer ${credential}`);
    const res = await doFetch(url, { method: "GET", headers });
    const { text, json } = await readBody(res);
    if (!res.ok)
      throw new ApiError(
        res.status,
        errorEnvelope(json) ?? {
          code: "unexpected_response",
          message: `HTTP ${res.status}: ${text.slice(0, 200)}`,
        },
        res.headers,
      );
    return text;
  }

  const id = (value: string) => encodeURIComponent(value);

  /** Any endpoint of the reference, typed by it: path parameters, query, body and answer. */
  function call<M extends HttpMethod, P extends PathOf<M>>(
    method: M,
    path: P,
    ...[init]: InitArgs<CallInit<M, P>>
  ): Promise<CallResult<M, P>> {
    const given = (init ?? {}) as {
      path?: Record<string, string>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
    };
    const url = (path as string).replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = given.path?.[name];
      if (value === undefined) throw new TypeError(`${path}: no value for {${name}}`);
      return id(value);
    });
    const query: Query = {};
    for (const [k, v] of Object.entries(given.query ?? {}))
      if (v !== undefined) query[k] = typeof v === "object" ? JSON.stringify(v) : (v as string);
    const { "idempotency-key": idempotencyKey, ...headers } = Object.fromEntries(
      Object.entries(given.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return request<CallResult<M, P>>(method, url, {
      query,
      body: given.body,
      idempotencyKey,
      headers,
    });
  }

  const client = {
    call,

    /** GET /api/chain (public): chain id, public RPC URL, USDC, escrow, USDC's EIP-712 domain. */
    getChainInfo: () => request<ChainInfoJson>("GET", "/api/chain"),

    /** GET /api/ledger: a page of the caller's money records, newest first. */
    listLedger: (query: LedgerFilters & PageQuery = {}) =>
      request<Paged<"entries", LedgerEntryJson>>("GET", "/api/ledger", { query }),

    /** Every entry of the filtered ledger, page after page (follows nextCursor). */
    async *allLedgerEntries(query: LedgerFilters = {}): AsyncGenerator<LedgerEntryJson> {
      let cursor: string | undefined;
      do {
        const page = await client.listLedger({ ...query, limit: 100, cursor });
        yield* page.entries;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },

    /** GET /api/ledger.csv: the filtered ledger as CSV text (RFC 4180). */
    ledgerCsv: (query: LedgerFilters = {}) => requestText("/api/ledger.csv", query),

    /** GET /api/auth/me: the user the credential acts as. */
    me: () => request<{ user: UserJson }>("GET", "/api/auth/me"),

    /** GET /api/profile: the caller's display name (changing it needs a session). */
    getProfile: () => request<{ profile: ProfileJson }>("GET", "/api/profile"),

    /** GET /api/deals: a page of the caller's deals (or open ones with `open: true`). */
    listDeals: ({ open, ...query }: DealListQuery = {}) =>
      request<DealPage>("GET", "/api/deals", {
        query: { ...query, ...(open ? { open: "1" } : {}) },
      }),

    /** Every deal of the list, page after page (follows nextCursor). */
    async *allDeals(query: Omit<DealListQuery, "cursor"> = {}): AsyncGenerator<DealJson> {
      let cursor: string | undefined;
      do {
        const page = await client.listDeals({ ...query, cursor });
        yield* page.deals;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },

    /** POST /api/deals (201): a brand creates a deal with its milestones. */
    createDeal: (body: CreateDealInput) =>
      request<{ deal: DealJson }>("POST", "/api/deals", { body }),

    /** GET /api/deals/{id}: one deal with its milestones and their review state. */
    getDeal: (dealId: string) =>
      request<{ deal: DealDetailJson }>("GET", `/api/deals/${id(dealId)}`),

    /** POST /api/deals/{id}/accept: a creator takes an open deal. */
    acceptDeal: (dealId: string) =>
      request<{ deal: DealJson }>("POST", `/api/deals/${id(dealId)}/accept`),

    /** GET /api/deals/{id}/events: the deal's activity log, oldest first. */
    /**
     * GET /api/events: every event of your deals (newest first), or with `order: "asc"` from
     * a cursor or an event on, `wait` seconds long-polling for the next one.
     */
    listEvents: (query: EventListInput = {}) =>
      request<{ events: EventJson[]; nextCursor: string | null }>("GET", "/api/events", {
        query,
      }),

    listDealEvents: (dealId: string, query: PageQuery = {}) =>
      request<{ events: DealEventJson[]; nextCursor: string | null }>(
        "GET",
        `/api/deals/${id(dealId)}/events`,
        { query },
      ),

    /** GET /api/deals/{id}/funding: the brand's escrow terms (`brand`: adds the gasless nonce). */
    getFundingTerms: (dealId: string, query: { brand?: string } = {}) =>
      request<{
        funding: FundingTermsJson & {
          status: DealJson["status"];
          deposit: DepositJson | null;
        };
      }>("GET", `/api/deals/${id(dealId)}/funding`, { query }),

    /**
     * POST /api/deals/{id}/funding: the brand funded the escrow from `brand` (its wallet: the
     * escrow keys the deal by it); the contract decides.
     */
    reportFunding: (dealId: string, txHash?: string, brand?: string) =>
      request<{ deal: DealJson }>("POST", `/api/deals/${id(dealId)}/funding`, {
        body: { ...(txHash ? { txHash } : {}), ...(brand ? { brand } : {}) },
      }),

    /**
     * POST /api/deals/{id}/funding/deposit: the deal's deposit address for `refundAddress`
     * (default: the one named before, else the account's wallet); settle scope.
     */
    requestDeposit: (dealId: string, refundAddress?: string) =>
      request<{ deposit: DepositJson }>("POST", `/api/deals/${id(dealId)}/funding/deposit`, {
        body: refundAddress ? { refundAddress } : {},
      }),

    /** POST /api/deals/{id}/cancel: end a deal nobody has taken (settle scope). */
    cancelDeal: (dealId: string, txHash?: string) =>
      request<{ deal: DealJson }>("POST", `/api/deals/${id(dealId)}/cancel`, {
        body: txHash ? { txHash } : {},
      }),

    /** POST /api/deals/{id}/refund: milestones still locked after deadline + grace (settle scope). */
    refundDeal: (dealId: string) =>
      request<{ deal: DealJson }>("POST", `/api/deals/${id(dealId)}/refund`),

    /** GET /api/milestones/{id}: a milestone with its history and settlement. */
    getMilestone: (milestoneId: string) =>
      request<{ milestone: MilestoneDetailJson }>("GET", `/api/milestones/${id(milestoneId)}`),

    /** POST /api/milestones/{id}/deliverable (201): the creator submits a revision. */
    submitDeliverable: (milestoneId: string, body: DeliverableInput) =>
      request<{ milestone: MilestoneDetailJson }>(
        "POST",
        `/api/milestones/${id(milestoneId)}/deliverable`,
        { body },
      ),

    /** GET /api/wallet: the wallets holding the caller's USDC, balances read on-chain. */
    getWallet: () => request<WalletOverviewJson>("GET", "/api/wallet"),

    /**
     * POST /api/wallet/withdrawals: send USDC from the caller's embedded wallet to `to` (settle
     * scope); the same `idempotencyKey` on a retry sends once and answers the first result.
     */
    withdraw: (body: WithdrawalBody, idempotencyKey?: string) =>
      request<{ withdrawal: WithdrawalJson }>("POST", "/api/wallet/withdrawals", {
        body,
        idempotencyKey,
      }),

    /** POST /api/verify: the AI verdict on the current revision. */
    verify: (milestoneId: string) =>
      request<VerdictJson>("POST", "/api/verify", { body: { milestoneId } }),

    /** POST /api/settle: verify, gate and pay once. */
    settle: (body: SettleInput, opts: WriteOptions = {}) =>
      request<SettleResult>("POST", "/api/settle", { body, ...opts }),

    /** POST /api/milestones/{id}/appeal (201): the creator appeals a rejection. */
    appeal: (milestoneId: string, reason: string) =>
      request<{ appeal: AppealJson; milestone: MilestoneDetailJson }>(
        "POST",
        `/api/milestones/${id(milestoneId)}/appeal`,
        { body: { reason } },
      ),

    /** GET /api/milestones/{id}/evidence: the posts the verifier read, newest revision first. */
    getEvidence: (milestoneId: string, query: PageQuery & { revision?: number } = {}) =>
      request<{ evidence: EvidenceJson[]; nextCursor: string | null }>(
        "GET",
        `/api/milestones/${id(milestoneId)}/evidence`,
        { query },
      ),

    /** POST /api/milestones/{id}/refund: an overdue milestone with nothing delivered, back to the brand. */
    refundMilestone: (
      milestoneId: string,
      body: { reason?: string; via?: "direct" | "relay" } = {},
      opts: WriteOptions = {},
    ) =>
      request<DecideResult>("POST", `/api/milestones/${id(milestoneId)}/refund`, {
        body,
        ...opts,
      }),

    /** GET /api/notifications: the inbox, newest first (`unread: true`: only unread). */
    listNotifications: (query: PageQuery & { unread?: boolean } = {}) =>
      request<Paged<"notifications", NotificationJson> & { unreadCount: number }>(
        "GET",
        "/api/notifications",
        { query },
      ),

    /** GET /api/notifications/unread */
    unreadCount: () => request<{ unreadCount: number }>("GET", "/api/notifications/unread"),

    /** POST /api/notifications/read: `{ ids }` or `{ all: true }`. */
    markRead: (body: MarkReadBody) =>
      request<{ marked: number; unreadCount: number }>("POST", "/api/notifications/read", {
        body,
      }),

    /** POST /api/webhooks (201): the signing secret is in this answer only. */
    createWebhook: (body: WebhookEndpointInput) =>
      request<{ endpoint: WebhookEndpointJson; secret: string }>("POST", "/api/webhooks", {
        body,
      }),

    /** GET /api/webhooks: the caller's endpoints, newest first. */
    listWebhooks: (query: PageQuery = {}) =>
      request<Paged<"endpoints", WebhookEndpointJson>>("GET", "/api/webhooks", { query }),

    /** GET /api/webhooks/{id} */
    getWebhook: (endpointId: string) =>
      request<{ endpoint: WebhookEndpointJson }>("GET", `/api/webhooks/${id(endpointId)}`),

    /** PATCH /api/webhooks/{id}: url, eventTypes, enabled. */
    updateWebhook: (endpointId: string, body: WebhookEndpointChange) =>
      request<{ endpoint: WebhookEndpointJson }>("PATCH", `/api/webhooks/${id(endpointId)}`, {
        body,
      }),

    /** DELETE /api/webhooks/{id}: the endpoint and its delivery log. */
    deleteWebhook: (endpointId: string) =>
      request<{ deleted: true }>("DELETE", `/api/webhooks/${id(endpointId)}`),

    /** POST /api/webhooks/{id}/rotate-secret: a new secret, in this answer only. */
    rotateWebhookSecret: (endpointId: string) =>
      request<{ endpoint: WebhookEndpointJson; secret: string }>(
        "POST",
        `/api/webhooks/${id(endpointId)}/rotate-secret`,
      ),

    /** GET /api/webhooks/{id}/deliveries: the delivery log, newest first. */
    listDeliveries: (endpointId: string, query: PageQuery = {}) =>
      request<Paged<"deliveries", WebhookDeliveryJson>>(
        "GET",
        `/api/webhooks/${id(endpointId)}/deliveries`,
        { query },
      ),

    /** POST /api/webhooks/{id}/test (202): a test event of `type`, sent like a real one. */
    sendTestEvent: (endpointId: string, type: DealEventJson["type"]) =>
      request<{ delivery: WebhookDeliveryJson }>("POST", `/api/webhooks/${id(endpointId)}/test`, {
        body: { type },
      }),

    /** POST /api/webhooks/{id}/deliveries/{deliveryId}/resend (202) */
    resendDelivery: (endpointId: string, deliveryId: string) =>
      request<{ delivery: WebhookDeliveryJson }>(
        "POST",
        `/api/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/resend`,
      ),

    /** POST /api/milestones/{id}/decision: the brand pays at a score or upholds. */
    decide: (milestoneId: string, body: DecisionInput, opts: WriteOptions = {}) =>
      request<DecideResult>("POST", `/api/milestones/${id(milestoneId)}/decision`, {
        body,
        ...opts,
      }),
  };
  return client;
}

export type MilestoneClient = ReturnType<typeof createClient>;
