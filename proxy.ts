import { NextResponse } from "next/server";

// Runs before the routes, for two things only. It is not an auth layer (handlers do that).
//
// 1. Next decodes dynamic path segments itself, before any handler runs, and answers a
//    malformed percent-encoding (e.g. /api/deals/%E0%A4%A) with a bare 500. Those become a
//    400: the contract's envelope under /api, a plain 400 elsewhere.
// 2. CORS for /api: pages on an origin listed in CORS_ORIGINS may call the API from the
//    browser, with credentials; no other origin is ever answered with CORS headers (never
//    `*`). A preflight from an unlisted origin is refused. CORS only lets such a page read
//    responses: a write authenticated by the session cookie must still come from this
//    site's own pages (lib/auth/same-origin.ts), so listed origins write with a bearer.
//
// The configuration (lib/env.ts) and the error envelope (lib/errors.ts) load zod: they are
// imported only by a request that needs them (one with an Origin, or a bad path), so that a
// cold instance's first same-origin request does not wait for them.

/** True when every percent-escape in the path decodes (as UTF-8). */
export function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

export const CORS_ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
export const CORS_ALLOWED_HEADERS =
  "Authorization, Content-Type, Idempotency-Key, Milestone-Version";
/** Response headers a cross-origin page may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS =
  "Allow, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Request-Id, Milestone-Version";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The request's Origin when CORS_ORIGINS lists it, else null. */
export async function allowedOrigin(req: Request): Promise<string | null> {
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return null;
  const { corsOrigins } = await import("@/lib/env");
  return corsOrigins().includes(origin.toLowerCase()) ? origin : null;
}

function corsHeaders(origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS,
    Vary: "Origin",
  };
}

async function cors(req: Request): Promise<Response | undefined> {
  const origin = req.headers.get("origin");
  if (!origin) return undefined; // not a cross-origin browser request: nothing to add
  const allowed = await allowedOrigin(req);
  const preflight = req.method === "OPTIONS" && req.headers.has("access-control-request-method");
  if (preflight) {
    if (!allowed) {
      const { AppError, errorResponse } = await import("@/lib/errors");
      return errorResponse(
        new AppError("forbidden", "This origin may not call the API from a browser.", {
          headers: { Vary: "Origin" },
        }),
      );
    }
    return new Response(null, {
      status: 204,
      headers: {
        ...corsHeaders(allowed),
        "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
        "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
        "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      },
    });
  }
  // The response of a listed origin's request carries the CORS headers; others get none,
  // so their page cannot read it. Vary either way: the answer depends on Origin.
  const res = NextResponse.next();
  const headers = allowed ? corsHeaders(allowed) : { Vary: "Origin" };
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
}

export async function proxy(req: Request): Promise<Response | undefined> {
  const { pathname } = new URL(req.url);
  if (decodablePath(pathname)) return isApiPath(pathname) ? cors(req) : undefined;
  if (isApiPath(pathname)) {
    const { AppError, errorResponse } = await import("@/lib/errors");
    const res = errorResponse(
      new AppError("invalid_request", "The request path is invalid: bad percent-encoding.", {
        details: [{ path: [], message: "malformed percent-encoding", code: "bad_encoding" }],
      }),
    );
    const origin = await allowedOrigin(req);
    if (origin) for (const [k, v] of Object.entries(corsHeaders(origin))) res.headers.set(k, v);
    return res;
  }
  return new Response("Bad request: the address has malformed percent-encoding.", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

export const config = {
  // The API (CORS) and any path with a percent sign; pages and assets never reach it.
  matcher: ["/api/:path*", "/(.*%.*)"],
};
