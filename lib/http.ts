import type { z } from "zod";
import type { ApiKeyScope } from "@/db/schema";
import { inRequestedVersion, requestedVersion } from "@/lib/api/versions";
import { AppError, errorResponse, internalErrorBody } from "@/lib/errors";
import { log } from "@/lib/log";
import { currentRequestId, REQUEST_ID_HEADER, requestIdOf, withRequestId } from "@/lib/request-id";
import { addResponseHeaders, withResponseHeaders } from "@/lib/response-headers";
import { inSpan, routeTemplate } from "@/lib/telemetry";

// The route wrapper every handler uses: parse → authenticate → call → respond.
// It owns the error envelope so handlers only throw AppError (or let bugs become 500s).

export const MAX_BODY_BYTES = 64 * 1024;

/** What the route asks of its caller: the scope an API key must carry (RouteOptions.scope). */
export type AuthNeed = { scope: ApiKeyScope | undefined };

/** Turns a request into its caller, or throws (401) when the route needs one. */
export type Authenticator<U> = (req: Request, need: AuthNeed) => Promise<U>;

/**
 * Marks an authenticator that accepts API keys (lib/auth/caller.ts requireUser): a route
 * using one must declare `scope`, in its type and at definition (route() throws).
 */
export const TAKES_API_KEYS = Symbol.for("milestone.takesApiKeys");
export type ScopedAuthenticator<U> = Authenticator<U> & { readonly [TAKES_API_KEYS]: true };

export function scopedAuthenticator<U>(fn: Authenticator<U>): ScopedAuthenticator<U> {
  return Object.assign(fn, { [TAKES_API_KEYS]: true as const });
}

type AnySchema = z.ZodType;
type Infer<S> = S extends AnySchema ? z.infer<S> : undefined;

export type RouteContext<U, B, Q, P> = {
  req: Request;
  user: U;
  body: B;
  query: Q;
  params: P;
};

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * Reads a stream whole, but refuses (`onTooLarge`, given the bytes received so far) as soon
 * as more than `limit` bytes have arrived, and cancels the rest: whatever size a sender or a
 * store declared, no more than the limit (and one chunk) is ever held in memory.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  onTooLarge: (received: number) => Error,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw onTooLarge(size);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads at most `limit` bytes of a request body; more → 413 without buffering the rest. */
export async function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  return new TextDecoder().decode(await readAtMost(req.body, limit, () => tooLarge(limit)));
}

function tooLarge(limit: number) {
  return new AppError("payload_too_large", `Request body must be at most ${limit / 1024} KiB.`);
}

export function invalidRequest(issues: z.core.$ZodIssue[], where: "body" | "query" | "path") {
  return new AppError(
    "invalid_request",
    `The request ${where === "path" ? "path" : where} is invalid.`,
    {
      details: issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code })),
    },
  );
}

/**
 * A body must say it is JSON. Besides being the contract, this closes cross-site form
 * posts: a page elsewhere can send `text/plain` or a form encoding without a CORS
 * preflight (e.g. to sign a victim in as the attacker), but never `application/json`.
 */
function assertJsonContentType(req: Request): void {
  const type = req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json" && !/^application\/[\w.+-]+\+json$/.test(type))
    throw new AppError(
      "unsupported_media_type",
      "Send the request body as JSON, with Content-Type: application/json.",
    );
}

async function parseJsonBody(req: Request): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === "") return undefined;
  assertJsonContentType(req);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
  assertNoNul(value, "body");
  return value;
}

function queryObject(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(req.url).searchParams) out[k] = v;
  assertNoNul(out, "query");
  return out;
}

/**
 * The path (keys) of the first string in `value` that holds a NUL character, or null.
 * Iterative, with each node pointing at its parent: a 64 KiB body can nest thousands
 * deep, more than the call stack (or a copied path per node) allows.
 */
function nulPath(value: unknown): string[] | null {
  type Node = { item: unknown; key: string; parent: Node | null };
  const pathOf = (node: Node | null): string[] => {
    const keys: string[] = [];
    for (let n = node; n?.parent; n = n.parent) keys.unshift(n.key);
    return keys;
  };
  const stack: Node[] = [{ item: value, key: "", parent: null }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const { item } = node;
    if (typeof item === "string") {
      if (item.includes("\u0000")) return pathOf(node);
    } else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes("\u0000")) return [...pathOf(node), key];
        stack.push({ item: child, key, parent: node });
      }
    }
  }
  return null;
}

/**
 * PostgreSQL refuses NUL in text columns (the query would fail as a 500), and no field of
 * this API has a use for it: refuse it up front as the caller's error, naming the field.
 */
function assertNoNul(value: unknown, where: "body" | "query" | "path"): void {
  const path = nulPath(value);
  if (!path) return;
  const field = path.join(".") || where;
  throw new AppError(
    "invalid_request",
    `The request ${where} is invalid: ${field} contains a NUL character.`,
    {
      details: [
        { path, message: "must not contain a NUL (\\u0000) character", code: "nul_character" },
      ],
    },
  );
}

function validate<S extends AnySchema>(
  schema: S,
  value: unknown,
  where: "body" | "query" | "path",
) {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest(parsed.error.issues, where);
  return parsed.data as z.infer<S>;
}

/**
 * Turns anything thrown into the contract's envelope, with the request's id (`requestId`);
 * unknown errors are logged, never shown.
 */
export function toErrorResponse(err: unknown, req?: Request): Response {
  const requestId = currentRequestId();
  if (err instanceof AppError) return errorResponse(err, requestId);
  log.error("unhandled error", {
    err,
    method: req?.method,
    path: req ? new URL(req.url).pathname : undefined,
  });
  const body = { error: { ...internalErrorBody.error, ...(requestId ? { requestId } : {}) } };
  return Response.json(body, { status: 500 });
}

type Handler<U, B, Q, P> = (
  ctx: RouteContext<U, Infer<B>, Infer<Q>, Infer<P>>,
) => Promise<Response> | Response;

export type RouteOptions<U, B, Q, P> = {
  body?: B;
  query?: Q;
  params?: P;
} & (
  | {
      /** Resolves the caller, API keys included (throws 401 when it must). */
      auth: ScopedAuthenticator<U>;
      /**
       * The scope an API key needs for this route (403 insufficient_scope without it);
       * sessions and identity tokens are not scope-limited. Declared by every route that
       * takes API keys; the reference (lib/openapi.ts) documents it from here.
       */
      scope: ApiKeyScope;
    }
  | {
      /** Resolves the caller without API keys (session only, cron secret). Omit for public routes. */
      auth?: Authenticator<U> & { readonly [TAKES_API_KEYS]?: never };
      scope?: never;
    }
);

/** How a route() handler authenticates: what the reference and the scope test read. */
export type RouteAccess =
  | { auth: "public" }
  | { auth: "api_key"; scope: ApiKeyScope }
  | { auth: "no_api_key" };

/** Marks the handlers route() made with their RouteAccess. */
export const ROUTE_ACCESS = Symbol.for("milestone.routeAccess");

/** The access a route() handler declared; undefined for anything else (a methodNotAllowed). */
export function routeAccess(handler: unknown): RouteAccess | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as { [ROUTE_ACCESS]?: RouteAccess })[ROUTE_ACCESS];
}

/** Marks the handlers route() made with the zod schemas they validate with. */
export const ROUTE_SCHEMAS = Symbol.for("milestone.routeSchemas");
export type RouteSchemas = { body?: AnySchema; query?: AnySchema; params?: AnySchema };

/** The schemas a route() handler validates its body, query and path with (tests, /docs). */
export function routeSchemas(handler: unknown): RouteSchemas | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as { [ROUTE_SCHEMAS]?: RouteSchemas })[ROUTE_SCHEMAS];
}

function accessOf(opts: {
  auth?: Authenticator<unknown> & { [TAKES_API_KEYS]?: true };
  scope?: ApiKeyScope;
}): RouteAccess {
  if (!opts.auth) return { auth: "public" };
  if (!opts.auth[TAKES_API_KEYS]) return { auth: "no_api_key" };
  // Fail at definition (import, build, every test), never as an open route at runtime.
  if (!opts.scope) throw new Error("A route that takes API keys must declare its scope.");
  return { auth: "api_key", scope: opts.scope };
}

/**
 * Wraps a route handler: validates path, query and body with zod, resolves the
 * caller through `auth`, and turns any error into the contract's envelope.
 */
export function route<
  U = null,
  B extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  P extends AnySchema | undefined = undefined,
>(opts: RouteOptions<U, B, Q, P>, handler: Handler<U, B, Q, P>) {
  const access = accessOf(opts as Parameters<typeof accessOf>[0]);
  const need: AuthNeed = { scope: access.auth === "api_key" ? access.scope : undefined };
  const wrapped = (req: Request, ctx?: NextRouteContext): Promise<Response> => {
    // The request's id: on the response (Request-Id), in every log line and error envelope.
    const requestId = requestIdOf(req);
    addResponseHeaders(req, { [REQUEST_ID_HEADER]: requestId });
    // A span per request (lib/telemetry.ts): the method and the route's template, no query.
    const template = routeTemplate(new URL(req.url).pathname);
    return withRequestId(requestId, () =>
      inSpan(
        `${req.method} ${template}`,
        { "http.request.method": req.method, "http.route": template },
        async (span) => {
          const res = await handle(req, ctx);
          span.setAttribute("http.response.status_code", res.status);
          return res;
        },
      ),
    );
  };
  const handle = async (req: Request, ctx?: NextRouteContext): Promise<Response> => {
    try {
      requestedVersion(req); // an unknown Milestone-Version is refused before anything runs
      const rawParams = ctx?.params ? await ctx.params : {};
      assertNoNul(rawParams, "path");
      const params = opts.params ? validate(opts.params, rawParams, "path") : undefined;
      const query = opts.query ? validate(opts.query, queryObject(req), "query") : undefined;
      // Body before auth: a malformed body is the caller's error whoever the caller is,
      // and the body must be read before the stream is abandoned.
      let body: unknown;
      if (opts.body) body = validate(opts.body, (await parseJsonBody(req)) ?? {}, "body");
      const user = opts.auth ? await opts.auth(req, need) : null;
      const res = await handler({
        req,
        user: user as U,
        body: body as Infer<B>,
        query: query as Infer<Q>,
        params: params as Infer<P>,
      });
      // In the API version the caller asked for or its key is pinned to (lib/api/versions.ts).
      return withResponseHeaders(req, await inRequestedVersion(req, res));
    } catch (err) {
      return withResponseHeaders(req, toErrorResponse(err, req));
    }
  };
  const schemas: RouteSchemas = { body: opts.body, query: opts.query, params: opts.params };
  return Object.assign(wrapped, { [ROUTE_ACCESS]: access, [ROUTE_SCHEMAS]: schemas });
}

// ── 405 for the methods a route does not implement ─────────────────────────────────────
// Next answers an unexported method with an empty 405 and derives OPTIONS from what is
// exported. Each route.ts instead exports the rest through this helper:
//   export const { PUT, PATCH, DELETE, HEAD, OPTIONS } = methodNotAllowed(["POST"]);
// (HEAD is Next's own when GET exists; test/foundation/methods.test.ts checks every route.)

export const ROUTE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];
type ImpliedBy<A extends RouteMethod> = "GET" extends A ? "HEAD" : never;
type OtherMethods<A extends RouteMethod> = Exclude<RouteMethod, A | ImpliedBy<A>>;
type PlainHandler = (req: Request) => Response;

/** Marks the handlers methodNotAllowed made (so a test can tell them from real ones). */
export const METHOD_NOT_ALLOWED = Symbol.for("milestone.methodNotAllowed");

/** The `Allow` header for a route implementing `allowed` (HEAD follows GET; OPTIONS always). */
export function allowHeader(allowed: readonly RouteMethod[]): string {
  const set = new Set<string>([...allowed, "OPTIONS"]);
  if (set.has("GET")) set.add("HEAD");
  return [...set].sort().join(", ");
}

/**
 * Handlers for every method the route does not implement: 405 `method_not_allowed` with
 * the contract's envelope and `Allow`, plus OPTIONS (204 with the same `Allow`).
 */
export function methodNotAllowed<const A extends RouteMethod>(
  allowed: readonly A[],
): Record<OtherMethods<A>, PlainHandler> & { OPTIONS: PlainHandler } {
  const allow = allowHeader(allowed);
  const refuse: PlainHandler = (req) => {
    const requestId = requestIdOf(req);
    const res = errorResponse(
      new AppError(
        "method_not_allowed",
        `${req.method} is not allowed here. This route accepts ${allow}.`,
        { headers: { Allow: allow }, details: { allowed: allow.split(", ") } },
      ),
      requestId,
    );
    res.headers.set(REQUEST_ID_HEADER, requestId);
    return res;
  };
  Object.assign(refuse, { [METHOD_NOT_ALLOWED]: true });
  const options: PlainHandler = (req) =>
    new Response(null, {
      status: 204,
      headers: { Allow: allow, [REQUEST_ID_HEADER]: requestIdOf(req) },
    });
  const handlers: Record<string, PlainHandler> = { OPTIONS: options };
  const implied = (allowed as readonly RouteMethod[]).includes("GET") ? ["HEAD"] : [];
  for (const method of ROUTE_METHODS)
    if (!(allowed as readonly string[]).includes(method) && !implied.includes(method))
      handlers[method] = refuse;
  return handlers as Record<OtherMethods<A>, PlainHandler> & { OPTIONS: PlainHandler };
}
