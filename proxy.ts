import { AppError, errorResponse } from "@/lib/errors";

// Next decodes dynamic path segments itself, before any handler runs, and answers a
// malformed percent-encoding (e.g. /api/deals/%E0%A4%A) with a bare 500. This proxy runs
// first, only for paths that contain "%", and turns those into a 400: the contract's
// envelope under /api, a plain 400 elsewhere. It is not an auth layer (handlers do that).

/** True when every percent-escape in the path decodes (as UTF-8). */
export function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export function proxy(req: Request): Response | undefined {
  const { pathname } = new URL(req.url);
  if (decodablePath(pathname)) return undefined; // carry on
  if (pathname === "/api" || pathname.startsWith("/api/"))
    return errorResponse(
      new AppError("invalid_request", "The request path is invalid: bad percent-encoding.", {
        details: [{ path: [], message: "malformed percent-encoding", code: "bad_encoding" }],
      }),
    );
  return new Response("Bad request: the address has malformed percent-encoding.", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

export const config = {
  // Only paths with a percent sign; everything else never reaches the proxy.
  matcher: "/(.*%.*)",
};
