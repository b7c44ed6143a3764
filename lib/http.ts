import type { z } from "zod";
import { AppError, errorResponse, internalErrorBody } from "@/lib/errors";
import { log } from "@/lib/log";

// The route wrapper every handler uses: parse → authenticate → call → respond.
// It owns the error envelope so handlers only throw AppError (or let bugs become 500s).

export const MAX_BODY_BYTES = 64 * 1024;

/** Turns a request into its caller, or throws (401) when the route needs one. */
export type Authenticator<U> = (req: Request) => Promise<U>;

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

/** Reads at most `limit` bytes of a request body; more → 413 without buffering the rest. */
export async function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
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

async function parseJsonBody(req: Request): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
}

function queryObject(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(req.url).searchParams) out[k] = v;
  return out;
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

/** Turns anything thrown into the contract's envelope; unknown errors are logged, never shown. */
export function toErrorResponse(err: unknown, req?: Request): Response {
  if (err instanceof AppError) return errorResponse(err);
  log.error("unhandled error", {
    err,
    method: req?.method,
    path: req ? new URL(req.url).pathname : undefined,
  });
  return Response.json(internalErrorBody, { status: 500 });
}

type Handler<U, B, Q, P> = (
  ctx: RouteContext<U, Infer<B>, Infer<Q>, Infer<P>>,
) => Promise<Response> | Response;

export type RouteOptions<U, B, Q, P> = {
  /** Resolves the caller (throws 401 when it must). Omit for public routes. */
  auth?: Authenticator<U>;
  body?: B;
  query?: Q;
  params?: P;
};

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
  return async (req: Request, ctx?: NextRouteContext): Promise<Response> => {
    try {
      const rawParams = ctx?.params ? await ctx.params : {};
      const params = opts.params ? validate(opts.params, rawParams, "path") : undefined;
      const query = opts.query ? validate(opts.query, queryObject(req), "query") : undefined;
      // Body before auth: a malformed body is the caller's error whoever the caller is,
      // and the body must be read before the stream is abandoned.
      let body: unknown;
      if (opts.body) body = validate(opts.body, (await parseJsonBody(req)) ?? {}, "body");
      const user = opts.auth ? await opts.auth(req) : null;
      return await handler({
        req,
        user: user as U,
        body: body as Infer<B>,
        query: query as Infer<Q>,
        params: params as Infer<P>,
      });
    } catch (err) {
      return toErrorResponse(err, req);
    }
  };
}
