// Response headers for every page and API route (next.config.ts `headers()`).
// Imported by next.config.ts, so only relative imports here (no "@/" alias there).
// No viem here (lib/chain/chains.ts loads its chain definitions): a cold start compiles and
// loads next.config.ts and what it imports before the first request is answered.
import { defaultRpcUrls } from "./chain/rpc-defaults";
import type { Env } from "./env";

export type SecurityHeaderOptions = {
  /** `next dev`: React's dev build needs eval, and HMR a websocket. */
  dev: boolean;
  /** Origins the browser's wallet code (wagmi/viem) sends JSON-RPC to. */
  rpcOrigins: string[];
  /** The bucket the browser PUTs large files to (lib/storage/direct.ts), when there is one. */
  uploadOrigins?: string[];
};

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Where the browser sends JSON-RPC (lib/chain/public-info.ts): on the local chain the
 * node itself (RPC_URL, by default anvil on 127.0.0.1 — any local port, since the dev
 * script may start anvil on a free one), elsewhere the chain's public endpoint (never
 * RPC_URL, which may carry a provider's key). These headers are fixed when the app is
 * built: rebuild after changing CHAIN or a non-local RPC_URL.
 */
export function browserRpcOrigins(e: Pick<Env, "CHAIN" | "RPC_URL">): string[] {
  const defaultRpcUrl = defaultRpcUrls[e.CHAIN];
  if (e.CHAIN !== "local") return [originOf(defaultRpcUrl)].filter((o) => o !== null);
  const configured = originOf(e.RPC_URL ?? defaultRpcUrl);
  const origins = new Set(["http://127.0.0.1:*", "http://localhost:*"]);
  if (configured) origins.add(configured);
  return [...origins];
}

/**
 * Where the browser sends a file straight to the bucket (a presigned PUT from POST
 * /api/uploads): the S3 endpoint (path-style), the bucket's own host under it, or AWS's
 * regional bucket host. None when uploads are kept on the server's disk.
 */
export function browserUploadOrigins(
  e: Pick<
    Env,
    "STORAGE_DRIVER" | "S3_BUCKET" | "S3_ENDPOINT" | "S3_FORCE_PATH_STYLE" | "S3_REGION"
  >,
): string[] {
  const driver = e.STORAGE_DRIVER ?? (e.S3_BUCKET ? "s3" : "local");
  if (driver !== "s3" || !e.S3_BUCKET) return [];
  if (!e.S3_ENDPOINT) return [`https://${e.S3_BUCKET}.s3.${e.S3_REGION}.amazonaws.com`];
  const endpoint = new URL(e.S3_ENDPOINT);
  if (e.S3_FORCE_PATH_STYLE) return [endpoint.origin];
  return [`${endpoint.protocol}//${e.S3_BUCKET}.${endpoint.host}`];
}

/**
 * The content security policy. Scripts and styles need 'unsafe-inline': Next inlines its
 * bootstrap scripts and React its style props, and nonces would make every page dynamic
 * on a per-request nonce. What the policy does buy: no framing (clickjacking), no plugins,
 * no <base> or form hijacking, and connections only to this origin, the chain's RPC and the
 * uploads bucket.
 */
export function contentSecurityPolicy(o: SecurityHeaderOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'unsafe-inline'", ...(o.dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": [
      "'self'",
      ...o.rpcOrigins,
      ...(o.uploadOrigins ?? []),
      ...(o.dev ? ["ws:", "wss:"] : []),
    ],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

export function securityHeaders(o: SecurityHeaderOptions): Array<{ key: string; value: string }> {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(o) },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Content-Type-Options", value: "nosniff" },
  ];
}
