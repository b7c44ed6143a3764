import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";

// CSRF defence for the session cookie, beyond SameSite=Lax: a write (POST, PUT, PATCH,
// DELETE) that the cookie authenticates must say it comes from this app's own pages.
// Browsers send Origin on every such fetch or form post; when it is missing, Sec-Fetch-Site
// (also browser-set, not scriptable) must be "same-origin". Non-browser clients use
// `Authorization: Bearer`, which a cross-site page cannot attach, and are not checked.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * True when the request comes from this app's origin: APP_URL's, or the one the request
 * was addressed to (its URL, which Next builds from the Host header, or Host itself).
 */
export function isSameOriginRequest(req: Request): boolean {
  const header = req.headers.get("origin");
  if (header === null) return req.headers.get("sec-fetch-site") === "same-origin";
  const origin = originOf(header);
  if (!origin) return false; // "null" (sandboxed frames, file:) or garbage
  if (origin === originOf(appUrl()) || origin === originOf(req.url)) return true;
  const host = req.headers.get("host")?.trim().toLowerCase();
  return Boolean(host) && new URL(origin).host === host;
}

/** Throws 403 `csrf_rejected` for a cookie-authenticated write from another site. */
export function assertSameOriginWrite(req: Request): void {
  if (SAFE_METHODS.has(req.method.toUpperCase()) || isSameOriginRequest(req)) return;
  throw new AppError(
    "csrf_rejected",
    "Cross-site request refused: a write authenticated by the session cookie must come from this site's own pages (its Origin header). API clients send Authorization: Bearer instead.",
  );
}
