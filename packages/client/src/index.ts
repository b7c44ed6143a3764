import type { components, operations, paths } from "./openapi-types.js";

// The typed client of the Milestone API (README.md beside this file). Every type comes from
// ./openapi-types.ts, which openapi-typescript generates from the API reference — itself made
// from the zod schemas the server validates with — so the client cannot drift from the API.
// `call(method, path, init)` reaches any endpoint; the named methods are shortcuts for the
// common ones. Any non-2xx answer throws an ApiError carrying the error envelope. No
// dependencies: it runs wherever `fetch` does.
//
//   const api = createClient({ baseUrl: "https://milestone.example", apiKey: "mk_…" });
//   const { deal } = await api.createDeal({ title, platform, milestones });
//   for await (const d of api.allDeals({ status: "active" })) …

export type { components, operations, paths };

// ── Reading an answer (also the app's browser fetch helper's, lib/client/api.ts) ──────────
// In this file rather than a module of its own: the app bundles this source, and a relative
// runtime import would need an extension Node accepts (.js) and the app's bundler resolves.

/** The contract's error envelope: `{ "error": { code, message, details?, requestId? } }`. */
export type ErrorBody = { code: string; message: string; details?: unknown; requestId?: string };

/** The answer's body as text, and parsed as JSON (undefined when empty or not JSON). */
export async function readBody(res: Response): Promise<{ text: string; json: unknown }> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { text, json };
}

/** The error envelope's `error` in a parsed body, or null when the body is not one. */
export function errorEnvelope(json: unknown): ErrorBody | null {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null | undefined)
    ?.error;
  return typeof error?.code === "string" && typeof error.message === "string"
    ? (error as ErrorBody)
    : null;
}

export type ClientOptions = {
  /** The service's origin, e.g. https://milestone.example (no trailing /api). */
  baseUrl: string;
  /** A fetch of your own (tests, retries, a proxy); default: the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request (e.g. Milestone-Version). */
  headers?: Record<string, string>;
} & (
  | { /** An API key (mk_…). */ apiKey: string; token?: never }
  | { /** A session token or an identity token. */ token: string; apiKey?: never }
);

/** A non-2xx answer: the contract's error envelope, its status and its headers. */
export class ApiError extends Error {
  readonly code: string;
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

type Query = Record<string, string | number | boolean | undefined>;

// ── Any endpoint by method and path, typed from the reference ──────────────────────────────
// `api.call("POST", "/api/deals/{id}/accept", { path: { id } })`: the path, query, body and
// answer types come from ./openapi-types.ts, which openapi-typescript generates from
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

type Schemas = components["schemas"];
type Body<M extends HttpMethod, P extends PathOf<M>> =
  CallInit<M, P> extends { body?: infer B } ? B : never;
type QueryOf<M extends HttpMethod, P extends PathOf<M>> =
  CallInit<M, P> extends {
    query?: infer Q;
  }
    ? NonNullable<Q>
    : never;

export type Deal = Schemas["Deal"];
export type DealListQuery = Omit<QueryOf<"GET", "/api/deals">, "open"> & {
  /** Open deals a creator may take, instead of the caller's own. */
  open?: boolean;
};
export type PageQuery = { limit?: number; cursor?: string };
export type CreateDealInput = Body<"POST", "/api/deals">;
export type DeliverableInput = Body<"POST", "/api/milestones/{id}/deliverable">;
export type SettleInput = Body<"POST", "/api/settle">;
export type DecisionInput = Body<"POST", "/api/milestones/{id}/decision">;
export type WebhookEndpointInput = Body<"POST", "/api/webhooks">;
export type WebhookEndpointChange = Body<"PATCH", "/api/webhooks/{id}">;
export type EventListInput = QueryOf<"GET", "/api/events">;
export type LedgerFilters = QueryOf<"GET", "/api/ledger.csv">;
export type EventType = Body<"POST", "/api/webhooks/{id}/test">["type"];
export type WriteOptions = {
  /** Sent as Idempotency-Key: a retry with the same key gets the first answer again. */
  idempotencyKey?: string;
};

export function createClient(options: ClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");
  const credential = options.apiKey ?? options.token;

  async function send(
    method: string,
    path: string,
    opts: { query?: Query; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ res: Response; text: string; json: unknown }> {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers = new Headers({ ...options.headers, ...opts.headers });
    if (!headers.has("accept")) headers.set("accept", "application/json");
    headers.set("authorization", `Bearer ${credential}`);
    if (opts.body !== undefined) headers.set("content-type", "application/json");
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
    return { res, text, json };
  }

  /** Any endpoint of the reference, typed by it: path parameters, query, body and answer. */
  async function call<M extends HttpMethod, P extends PathOf<M>>(
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
      return encodeURIComponent(value);
    });
    const query: Query = {};
    for (const [k, v] of Object.entries(given.query ?? {}))
      if (v !== undefined) query[k] = typeof v === "object" ? JSON.stringify(v) : (v as string);
    const { json } = await send(method, url, {
      query,
      body: given.body,
      headers: given.headers,
    });
    return json as CallResult<M, P>;
  }

  const idempotency = (opts: WriteOptions) =>
    opts.idempotencyKey ? { "idempotency-key": opts.idempotencyKey } : undefined;

  const client = {
    call,

    /** GET /api/chain (public): chain id, public RPC URL, USDC, escrow, USDC's EIP-712 domain. */
    getChainInfo: () => call("GET", "/api/chain"),

    /** GET /api/ledger: a page of the caller's money records, newest first. */
    listLedger: (query: QueryOf<"GET", "/api/ledger"> = {}) =>
      call("GET", "/api/ledger", { query }),

    /** Every entry of the filtered ledger, page after page (follows nextCursor). */
    async *allLedgerEntries(
      query: Omit<QueryOf<"GET", "/api/ledger">, "cursor" | "limit"> = {},
    ): AsyncGenerator<Schemas["LedgerEntry"]> {
      let cursor: string | undefined;
      do {
        const page = await client.listLedger({ ...query, limit: 100, cursor });
        yield* page.entries;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },

    /** GET /api/ledger.csv: the filtered ledger as CSV text (RFC 4180). */
    ledgerCsv: async (query: LedgerFilters = {}) =>
      (
        await send("GET", "/api/ledger.csv", {
          query: query as Query,
          headers: { accept: "text/csv" },
        })
      ).text,

    /** GET /api/auth/me: the user the credential acts as. */
    me: () => call("GET", "/api/auth/me"),

    /** GET /api/profile: the caller's display name (changing it needs a session). */
    getProfile: () => call("GET", "/api/profile"),

    /** GET /api/deals: a page of the caller's deals (or open ones with `open: true`). */
    listDeals: ({ open, ...query }: DealListQuery = {}) =>
      call("GET", "/api/deals", { query: { ...query, ...(open ? { open: "1" } : {}) } }),

    /** Every deal of the list, page after page (follows nextCursor). */
    async *allDeals(query: Omit<DealListQuery, "cursor"> = {}): AsyncGenerator<Deal> {
      let cursor: string | undefined;
      do {
        const page = await client.listDeals({ ...query, cursor });
        yield* page.deals;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },

    /** POST /api/deals (201): a brand creates a deal with its milestones. */
    createDeal: (body: CreateDealInput) => call("POST", "/api/deals", { body }),

    /** GET /api/deals/{id}: one deal with its milestones and their review state. */
    getDeal: (dealId: string) => call("GET", "/api/deals/{id}", { path: { id: dealId } }),

    /** POST /api/deals/{id}/accept: a creator takes an open deal. */
    acceptDeal: (dealId: string, body: Body<"POST", "/api/deals/{id}/accept"> = {}) =>
      call("POST", "/api/deals/{id}/accept", { path: { id: dealId }, body }),

    /**
     * GET /api/events: every event of your deals (newest first), or with `order: "asc"` from
     * a cursor or an event on, `wait` seconds long-polling for the next one.
     */
    listEvents: (query: EventListInput = {}) => call("GET", "/api/events", { query }),

    /** GET /api/deals/{id}/events: the deal's activity log, oldest first. */
    listDealEvents: (dealId: string, query: PageQuery = {}) =>
      call("GET", "/api/deals/{id}/events", { path: { id: dealId }, query }),

    /** GET /api/deals/{id}/funding: the brand's escrow terms (`brand`: adds the gasless nonce). */
    getFundingTerms: (dealId: string, query: QueryOf<"GET", "/api/deals/{id}/funding"> = {}) =>
      call("GET", "/api/deals/{id}/funding", { path: { id: dealId }, query }),

    /**
     * POST /api/deals/{id}/funding: the brand funded the escrow from `brand` (its wallet: the
     * escrow keys the deal by it), or through the deal's deposit address; the contract decides.
     */
    reportFunding: (dealId: string, txHash?: string, brand?: string) =>
      call("POST", "/api/deals/{id}/funding", {
        path: { id: dealId },
        body: { ...(txHash ? { txHash } : {}), ...(brand ? { brand } : {}) },
      }),

    /**
     * POST /api/deals/{id}/funding/deposit: the deal's deposit address for `refundAddress`
     * (default: the one named before, else the account's wallet); settle scope.
     */
    requestDeposit: (dealId: string, refundAddress?: string) =>
      call("POST", "/api/deals/{id}/funding/deposit", {
        path: { id: dealId },
        body: refundAddress ? { refundAddress } : {},
      }),

    /** POST /api/deals/{id}/cancel: end a deal nobody has taken (settle scope). */
    cancelDeal: (dealId: string, txHash?: string) =>
      call("POST", "/api/deals/{id}/cancel", {
        path: { id: dealId },
        body: txHash ? { txHash } : {},
      }),

    /** POST /api/deals/{id}/refund: milestones still locked after deadline + grace (settle scope). */
    refundDeal: (dealId: string) =>
      call("POST", "/api/deals/{id}/refund", { path: { id: dealId } }),

    /** GET /api/milestones/{id}: a milestone with its history and settlement. */
    getMilestone: (milestoneId: string) =>
      call("GET", "/api/milestones/{id}", { path: { id: milestoneId } }),

    /** POST /api/milestones/{id}/deliverable (201): the creator submits a revision. */
    submitDeliverable: (milestoneId: string, body: DeliverableInput) =>
      call("POST", "/api/milestones/{id}/deliverable", { path: { id: milestoneId }, body }),

    /** GET /api/wallet: the wallets holding the caller's USDC, balances read on-chain. */
    getWallet: () => call("GET", "/api/wallet"),

    /**
     * POST /api/wallet/withdrawals: send USDC from the caller's embedded wallet to `to` (settle
     * scope); the same `idempotencyKey` on a retry sends once and answers the first result.
     */
    withdraw: (body: Body<"POST", "/api/wallet/withdrawals">, idempotencyKey?: string) =>
      call("POST", "/api/wallet/withdrawals", {
        body,
        headers: idempotency({ idempotencyKey }),
      }),

    /** POST /api/verify: the AI verdict on the current revision. */
    verify: (milestoneId: string) => call("POST", "/api/verify", { body: { milestoneId } }),

    /** POST /api/settle: verify, gate and pay once. */
    settle: (body: SettleInput, opts: WriteOptions = {}) =>
      call("POST", "/api/settle", { body, headers: idempotency(opts) }),

    /** POST /api/milestones/{id}/appeal (201): the creator appeals a rejection. */
    appeal: (milestoneId: string, reason: string) =>
      call("POST", "/api/milestones/{id}/appeal", { path: { id: milestoneId }, body: { reason } }),

    /** GET /api/milestones/{id}/evidence: the posts the verifier read, newest revision first. */
    getEvidence: (
      milestoneId: string,
      query: QueryOf<"GET", "/api/milestones/{id}/evidence"> = {},
    ) => call("GET", "/api/milestones/{id}/evidence", { path: { id: milestoneId }, query }),

    /** POST /api/milestones/{id}/refund: an overdue milestone with nothing delivered, back to the brand. */
    refundMilestone: (
      milestoneId: string,
      body: Body<"POST", "/api/milestones/{id}/refund"> = {},
      opts: WriteOptions = {},
    ) =>
      call("POST", "/api/milestones/{id}/refund", {
        path: { id: milestoneId },
        body,
        headers: idempotency(opts),
      }),

    /** GET /api/notifications: the inbox, newest first (`unread: true`: only unread). */
    listNotifications: ({
      unread,
      ...query
    }: Omit<QueryOf<"GET", "/api/notifications">, "unread"> & { unread?: boolean } = {}) =>
      call("GET", "/api/notifications", {
        query: { ...query, ...(unread === undefined ? {} : { unread: unread ? "true" : "false" }) },
      }),

    /** GET /api/notifications/unread */
    unreadCount: () => call("GET", "/api/notifications/unread"),

    /** POST /api/notifications/read: `{ ids }` or `{ all: true }`. */
    markRead: (body: Body<"POST", "/api/notifications/read">) =>
      call("POST", "/api/notifications/read", { body }),

    /** POST /api/webhooks (201): the signing secret is in this answer only. */
    createWebhook: (body: WebhookEndpointInput) => call("POST", "/api/webhooks", { body }),

    /** GET /api/webhooks: the caller's endpoints, newest first. */
    listWebhooks: (query: PageQuery = {}) => call("GET", "/api/webhooks", { query }),

    /** GET /api/webhooks/{id} */
    getWebhook: (endpointId: string) =>
      call("GET", "/api/webhooks/{id}", { path: { id: endpointId } }),

    /** PATCH /api/webhooks/{id}: url, eventTypes, enabled, metadata. */
    updateWebhook: (endpointId: string, body: WebhookEndpointChange) =>
      call("PATCH", "/api/webhooks/{id}", { path: { id: endpointId }, body }),

    /** DELETE /api/webhooks/{id}: the endpoint and its delivery log. */
    deleteWebhook: (endpointId: string) =>
      call("DELETE", "/api/webhooks/{id}", { path: { id: endpointId } }),

    /** POST /api/webhooks/{id}/rotate-secret: a new secret, in this answer only. */
    rotateWebhookSecret: (endpointId: string) =>
      call("POST", "/api/webhooks/{id}/rotate-secret", { path: { id: endpointId } }),

    /** GET /api/webhooks/{id}/deliveries: the delivery log, newest first. */
    listDeliveries: (endpointId: string, query: PageQuery = {}) =>
      call("GET", "/api/webhooks/{id}/deliveries", { path: { id: endpointId }, query }),

    /** POST /api/webhooks/{id}/test (202): a test event of `type`, sent like a real one. */
    sendTestEvent: (endpointId: string, type: EventType) =>
      call("POST", "/api/webhooks/{id}/test", { path: { id: endpointId }, body: { type } }),

    /** POST /api/webhooks/{id}/deliveries/{deliveryId}/resend (202) */
    resendDelivery: (endpointId: string, deliveryId: string) =>
      call("POST", "/api/webhooks/{id}/deliveries/{deliveryId}/resend", {
        path: { id: endpointId, deliveryId },
      }),

    /** POST /api/milestones/{id}/decision: the brand pays at a score or upholds. */
    decide: (milestoneId: string, body: DecisionInput, opts: WriteOptions = {}) =>
      call("POST", "/api/milestones/{id}/decision", {
        path: { id: milestoneId },
        body,
        headers: idempotency(opts),
      }),
  };
  return client;
}

export type MilestoneClient = ReturnType<typeof createClient>;
