import path from "node:path";
import { z } from "zod";
// Relative, as everything next.config.ts loads: its loader resolves "@/" against the root
// from inside lib/ (it looked for lib/lib/verify/calibration and `next build` failed).
import { calibrationSchema } from "./verify/calibration";

// The only reader of process.env. Every setting has an embedded default so that
// `npm run dev` and `npm test` need nothing configured; production settings that
// have no safe default are checked by `assertProductionReady`.

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes" || v === "on");

const optionalUrl = z.string().url().optional();
const optional = z.string().min(1).optional();
const hex32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
  .optional();
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .optional();

/** A calibration as `npm run eval` prints it (JSON); empty or unset: none. */
const calibrationJson = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be the JSON line npm run eval prints" });
      return z.NEVER;
    }
    const parsed = calibrationSchema.safeParse(raw);
    if (!parsed.success) {
      ctx.addIssue({
        code: "custom",
        message: `must be the JSON line npm run eval prints (${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")})`,
      });
      return z.NEVER;
    }
    return parsed.data;
  });

export const chainNames = ["local", "base-sepolia", "sepolia", "arc-testnet", "base"] as const;

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Where the embedded setup keeps its state: PGlite, anvil state, dev keys, deployments. */
  DATA_DIR: z.string().min(1).default(".data"),
  /** Public base URL of the app (used for the dev identity provider's issuer and JWKS URL). */
  APP_URL: optionalUrl,
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Set by Next.js inside the app server ("nodejs" or "edge"); unset in scripts and tests. */
  NEXT_RUNTIME: z.enum(["nodejs", "edge"]).optional(),

  DATABASE_URL: optional,
  /** Tests only: a PostgreSQL server on which the suite creates a fresh database per run. */
  TEST_DATABASE_URL: optional,
  /** PGlite location when DATABASE_URL is unset; `memory://` keeps it in memory. */
  PGLITE_DIR: optional,

  CHAIN: z.enum(chainNames).default("local"),
  RPC_URL: optionalUrl,
  /** Treasury / settlement / attestor key. Defaults to anvil's first dev account on the local chain. */
  TREASURY_PRIVATE_KEY: hex32,
  /** Local relayer's sponsor key (pays gas for relayed settlements on anvil). */
  RELAY_SPONSOR_PRIVATE_KEY: hex32,
  USDC_ADDRESS: address,
  REPUTATION_REGISTRY_ADDRESS: address,
  /** MilestoneEscrow holding deals' USDC (npm run contracts:deploy prints it). */
  ESCROW_ADDRESS: address,
  /** DepositForwarderFactory: each deal's deposit address (npm run contracts:deploy prints it). */
  DEPOSIT_FACTORY_ADDRESS: address,
  /** Seconds to wait for a transaction receipt before leaving it to reconciliation. */
  TX_RECEIPT_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  /** More JSON-RPC endpoints (comma-separated), tried in turn when RPC_URL fails. */
  RPC_FALLBACK_URLS: optional,
  /** Seconds a signed transaction may stay unmined before it is re-signed with higher fees. */
  TX_REPLACE_AFTER_SECONDS: z.coerce.number().min(0).default(60),
  /** Fee ceiling (gwei) a replacement never goes above; default per chain (lib/chain/chains.ts). */
  TX_MAX_FEE_GWEI: z.coerce.number().positive().optional(),
  /** An unmined transaction older than this is an alert (error log, health `degraded`). */
  TX_STUCK_ALERT_SECONDS: z.coerce.number().positive().default(300),
  /** Blocks on top of a receipt's before a payment counts as confirmed; default per chain. */
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(0).optional(),
  /** Most blocks one eth_getLogs request spans (hosted RPCs refuse larger ranges). */
  LOG_RANGE_BLOCKS: z.coerce.number().int().positive().default(2000),
  /** The first block the escrow's logs are read from (its deployment block). */
  ESCROW_START_BLOCK: z.coerce.number().int().min(0).default(0),
  /** How long a request waits on the chain (e.g. settle's receipt) before answering 202. */
  CHAIN_BUDGET_SECONDS: z.coerce.number().positive().default(10),

  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  IDP_JWKS_URL: optionalUrl,
  IDP_ISSUER: optional,
  IDP_AUDIENCE: optional,
  IDP_EMAIL_CLAIM: z.string().min(1).default("email"),
  /** Claim holding the wallet: a string claim (`wallet_address`, `wallet`) or Web3Auth's `wallets` list. */
  IDP_WALLET_CLAIM: z.string().min(1).default("wallet_address"),
  DEV_IDP_ENABLED: bool.optional(),
  /** Where the embedded OpenID provider (scripts/dev.ts) listens: its issuer URL. */
  DEV_IDP_URL: optionalUrl,
  /**
   * Browser sign-in with the configured provider (IDP_ISSUER, client id IDP_AUDIENCE): its
   * client secret. Set, /sign-in offers "Continue with OIDC_PROVIDER_NAME" (code + PKCE).
   */
  OIDC_CLIENT_SECRET: optional,
  OIDC_PROVIDER_NAME: z.string().min(1).default("your identity provider"),
  OIDC_SCOPES: z.string().min(1).default("openid email profile"),
  /** The algorithm the provider signs ID tokens with (its discovery document lists them). */
  OIDC_ID_TOKEN_ALG: z.enum(["RS256", "ES256", "EdDSA"]).default("RS256"),
  /** "Sign in with Ethereum" on /sign-in (EIP-4361, for people whose identity is a wallet). On by default. */
  SIWE_SIGN_IN: bool.optional(),
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 60 * 24 * 7),

  AI_GATEWAY_MODEL: optional,
  AI_GATEWAY_API_KEY: optional,
  AI_BASE_URL: optionalUrl,
  AI_MODEL: optional,
  AI_API_KEY: optional,
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * The calibration of the configured model's own probability (lib/verify/calibration.ts),
   * fitted on the eval's tune split by `npm run eval`, which prints this JSON. Unset, or fitted
   * for another model: a single model's judgement of criteria stays uncertain (0.5).
   */
  AI_CALIBRATION: calibrationJson,

  /** How long one webhook delivery may take (connect, send, answer) before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * How notification e-mails leave: `outbox` (default) keeps them in the database only,
   * shown at /dev/outbox locally; `http` posts them to a provider's HTTP API (MAIL_HTTP_URL).
   */
  MAIL_TRANSPORT: z.enum(["outbox", "http"]).default("outbox"),
  /** The provider's send endpoint: POST JSON { from, to, subject, text } with a bearer key. */
  MAIL_HTTP_URL: optionalUrl,
  MAIL_HTTP_API_KEY: optional,
  MAIL_FROM: z.string().min(3).default("Milestone <notifications@milestone.invalid>"),

  RELAY_PROVIDER: z.enum(["local", "gelato"]).optional(),
  RELAY_API_URL: optionalUrl,
  RELAY_API_KEY: optional,

  DEMO_PASSPHRASE: optional,
  /**
   * How many proxies in front of the app append the client's address to X-Forwarded-For
   * (e.g. 1 behind one load balancer). 0 = none: the header is then the client's own word,
   * so per-client limits fall back to one bucket shared by everybody.
   */
  TRUSTED_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  CRON_SECRET: optional,
  /**
   * Traces (lib/telemetry.ts): where to send them, an OTLP/HTTP collector's traces endpoint
   * (e.g. https://otel.example/v1/traces). Unset: no spans are recorded or sent.
   */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
  /** The service name the traces carry. */
  OTEL_SERVICE_NAME: z.string().min(1).default("milestone"),
  /**
   * GET /api/health?detail=1 (behind the cron secret) reports the signer's balance against
   * this floor, in wei (default 0.01 ETH): below it, payments will soon stop for want of gas.
   */
  SIGNER_BALANCE_FLOOR_WEI: z.coerce.bigint().nonnegative().default(10_000_000_000_000_000n),
  /**
   * Whether search engines may index the site (app/robots.ts). Off by default, so previews and
   * staging stay out of search results: set it on the production deployment only.
   */
  SEARCH_INDEXING: bool.optional(),
  /**
   * Where `next build` writes and `next start` reads the build (next.config.ts distDir),
   * relative to the project. Default `.next`; tests build elsewhere so as not to collide with it.
   */
  NEXT_DIST_DIR: z.string().min(1).default(".next"),
  /**
   * `0`: `next build` skips its TypeScript check (`npm run typecheck` runs the same check; the
   * multi-instance test's build skips it to save minutes). On by default.
   */
  BUILD_TYPECHECK: bool.optional(),
  /** Set by Vercel: this deployment's own host (`milestone-abc123.vercel.app`), no scheme. */
  VERCEL_URL: optional,

  /**
   * Origins (comma-separated, e.g. `https://app.example.com,https://admin.example.com`) whose
   * pages may call /api from the browser (CORS, with credentials). Empty = none: same-origin only.
   */
  CORS_ORIGINS: z.string().optional(),
  /** Requests per minute one API key may make (429 rate_limited beyond). */
  API_KEY_RATE_LIMIT: z.coerce.number().int().positive().default(120),
  /** Requests per minute per user across all its API keys and identity-token bearers. */
  USER_RATE_LIMIT: z.coerce.number().int().positive().default(600),

  /**
   * Outbound fetches (lib/net/safe-fetch: evidence, webhooks) refuse private, loopback and
   * metadata addresses and, in production, plain http. Hosts listed here (comma-separated
   * `host:port`, e.g. `127.0.0.1:4000,localhost:3000`) are exempt: local test servers only.
   * Empty by default.
   */
  FETCH_ALLOWED_HOSTS: z.string().optional(),
  /**
   * The built-in sandbox social platform (app/social) as an evidence source; its oEmbed is read
   * from the app's own origin. Defaults to on in the embedded setup, off otherwise.
   */
  SANDBOX_SOCIAL: bool.optional(),
  /** Where the sandbox's posts and oEmbed endpoint are served (default: APP_URL, the app itself). */
  SANDBOX_ORIGIN: optionalUrl,
  /** Instagram oEmbed (Graph API) access token: `app-id|client-token`. Without it Instagram posts are read as plain pages. */
  INSTAGRAM_OEMBED_TOKEN: optional,

  /**
   * Who signs for users' embedded wallets (lib/wallet/signer.ts): `dev` = the dev identity
   * provider's server-held keys (the stand-in for a provider wallet SDK), `none` = nobody
   * (sending from an embedded wallet answers 503 not_configured). Default: `dev` while the dev
   * identity provider is on, else `none` until a provider connector (Privy, Coinbase) is added.
   */
  EMBEDDED_WALLET_SIGNER: z.enum(["dev", "none"]).optional(),
  /**
   * Card on-ramp ("Buy USDC with a card") and bank off-ramp ("Cash out to a bank") links:
   * URL templates with {address} {amount} {network} {token} placeholders (lib/wallet/ramps.ts).
   * Unset: the link is not shown. External services, not tested here.
   */
  ONRAMP_URL: optionalUrl,
  OFFRAMP_URL: optionalUrl,

  /**
   * Where uploads (draft media, message attachments) are kept (lib/storage): `local` = a
   * directory (STORAGE_DIR), `s3` = an S3-compatible bucket (S3_BUCKET). Default: `s3` when
   * S3_BUCKET is set, else `local`.
   */
  STORAGE_DRIVER: z.enum(["local", "s3"]).optional(),
  /** The local driver's directory (default `$DATA_DIR/uploads`). */
  STORAGE_DIR: optional,
  /**
   * A production deployment outside the embedded setup refuses local storage (its instances
   * share no disk); `1` allows it for a single machine with a disk that lasts.
   */
  STORAGE_LOCAL_IN_PRODUCTION: bool.optional(),
  S3_BUCKET: optional,
  /** The bucket's region (AWS), or whatever the S3-compatible service expects (`auto` on R2). */
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** An S3-compatible service's endpoint (R2, MinIO, Backblaze…); unset = AWS S3 itself. */
  S3_ENDPOINT: optionalUrl,
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible services need. */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** Unset = the AWS SDK's own credential chain (its AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  /**
   * How alike a live post's caption must be to the approved draft's (lib/verify/draft-match.ts):
   * 1 − edit distance ÷ the longer caption, on normalised text. 0.9 by default.
   */
  DRAFT_MATCH_MIN_SIMILARITY: z.coerce.number().min(0).max(1).default(0.9),
  /** Largest image upload (bytes): 10 MiB by default. */
  UPLOAD_MAX_IMAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** Largest video upload (bytes): 100 MiB by default (about a minute of 1080p from a phone). */
  UPLOAD_MAX_VIDEO_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
});

export type Env = z.infer<typeof schema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration: ${describeIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

let cached: Env | undefined;

/** The validated configuration of this process, read once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests that change process.env between cases call this. */
export function resetEnvCache(): void {
  cached = undefined;
}

export const isProduction = (e: Env = env()) => e.NODE_ENV === "production";

/** The embedded setup: no external database and the local chain. */
export const isEmbedded = (e: Env = env()) => !e.DATABASE_URL && e.CHAIN === "local";

export function dataDir(e: Env = env()): string {
  return path.resolve(e.DATA_DIR);
}

export function appUrl(e: Env = env()): string {
  const vercel = e.VERCEL_URL && `https://${e.VERCEL_URL}`;
  return (e.APP_URL ?? vercel ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
}

/**
 * The dev identity provider (anyone can sign in as any e-mail): on by default under
 * `next dev` and in tests; under `next start` only when DEV_IDP_ENABLED says so, the
 * embedded production build included.
 */
export function devIdpEnabled(e: Env = env()): boolean {
  if (e.DEV_IDP_ENABLED !== undefined) return e.DEV_IDP_ENABLED;
  return !isProduction(e);
}

/** The embedded OpenID provider's issuer: DEV_IDP_URL, else APP_URL's host on PORT + 1. */
export function devIdpUrl(e: Env = env()): string {
  if (e.DEV_IDP_URL) return e.DEV_IDP_URL.replace(/\/$/, "");
  const url = new URL(appUrl(e));
  url.port = String(Number(url.port || (url.protocol === "https:" ? 443 : 80)) + 1);
  return url.origin;
}

/** The local outbox page (/dev/outbox): the embedded setup with the dev provider on and outbox mail. */
export function outboxPageShown(e: Env = env()): boolean {
  return isEmbedded(e) && devIdpEnabled(e) && e.MAIL_TRANSPORT === "outbox";
}

/** Signing in with a wallet (SIWE_SIGN_IN, on unless set off). */
export const siweSignInEnabled = (e: Env = env()) => e.SIWE_SIGN_IN ?? true;

/**
 * next-auth 4 takes its public base URL from process.env.NEXTAUTH_URL alone: set it here
 * from APP_URL and the path its routes are mounted at (lib/auth/web-sign-in.ts).
 */
export function setNextAuthUrl(basePath: string, e: Env = env()): void {
  process.env.NEXTAUTH_URL = `${appUrl(e)}${basePath}`;
}

/**
 * Settings production cannot run without. Called on server start (instrumentation)
 * so a bad deployment fails loudly naming the variable, not on the first request.
 */
export function productionProblems(e: Env = env()): string[] {
  if (!isProduction(e)) return [];
  const problems: string[] = [];
  if (e.MAIL_TRANSPORT === "http" && !e.MAIL_HTTP_URL)
    problems.push("MAIL_HTTP_URL is required when MAIL_TRANSPORT=http");
  // The embedded setup (PGlite + local chain) keeps a generated secret under DATA_DIR.
  if (!e.AUTH_SECRET && !isEmbedded(e))
    problems.push("AUTH_SECRET is required in production (32+ characters)");
  if (e.CHAIN !== "local") {
    if (!e.TREASURY_PRIVATE_KEY)
      problems.push(`TREASURY_PRIVATE_KEY is required on chain ${e.CHAIN}`);
    if (!e.REPUTATION_REGISTRY_ADDRESS)
      problems.push(
        `REPUTATION_REGISTRY_ADDRESS is required on chain ${e.CHAIN} (npm run contracts:deploy prints it)`,
      );
  }
  // People need one way in: an identity provider or e-mail links (or the demo provider).
  if (!devIdpEnabled(e)) {
    const idp = ["IDP_JWKS_URL", "IDP_ISSUER", "IDP_AUDIENCE"] as const;
    const missing = idp.filter((k) => !e[k]);
    const verb = missing.length > 1 ? "are" : "is";
    const mail = e.MAIL_TRANSPORT === "http" && Boolean(e.MAIL_HTTP_URL);
    if (missing.length > 0 && missing.length < idp.length)
      problems.push(`${missing.join(", ")} ${verb} required with the other IDP_* settings`);
    else if (missing.length === idp.length && !mail)
      problems.push(
        `No way to sign in: ${missing.join(", ")} ${verb} required in production (your identity provider; OIDC_CLIENT_SECRET adds browser sign-in), or MAIL_TRANSPORT=http with MAIL_HTTP_URL (e-mail sign-in links), or DEV_IDP_ENABLED=1 for a demo where anyone can sign in as anyone`,
      );
  }
  try {
    corsOrigins(e);
  } catch (err) {
    problems.push((err as Error).message.replace(/^Invalid configuration: /, ""));
  }
  // The reconcile cron (vercel.json) authenticates with it; only the embedded setup generates one.
  if (!e.CRON_SECRET && !isEmbedded(e))
    problems.push("CRON_SECRET is required in production (the reconcile cron's bearer secret)");
  if (e.AI_BASE_URL && !e.AI_MODEL) problems.push("AI_MODEL is required when AI_BASE_URL is set");
  if (e.RELAY_PROVIDER === "gelato" && (!e.RELAY_API_URL || !e.RELAY_API_KEY))
    problems.push("RELAY_API_URL and RELAY_API_KEY are required when RELAY_PROVIDER=gelato");
  // Uploads are read back by any instance: a deployment's instances share no disk.
  const storage = storageDriver(e);
  if (storage === "s3" && !e.S3_BUCKET)
    problems.push("S3_BUCKET is required when STORAGE_DRIVER=s3");
  if (storage === "local" && !isEmbedded(e) && !e.STORAGE_LOCAL_IN_PRODUCTION)
    problems.push(
      "Uploads would be kept on this machine's disk, which other instances cannot read: set S3_BUCKET (an S3-compatible bucket, STORAGE_DRIVER=s3), or STORAGE_LOCAL_IN_PRODUCTION=1 for a single machine whose STORAGE_DIR lasts",
    );
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    problems.push("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together");
  return problems;
}

export function assertProductionReady(e: Env = env()): void {
  const problems = productionProblems(e);
  if (problems.length) throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
}

/**
 * Hosts outbound fetches may reach although they resolve to a private or loopback address
 * (and over http): only what FETCH_ALLOWED_HOSTS lists, as lower-case `host:port`.
 */
export function fetchAllowedHosts(e: Env = env()): string[] {
  return (e.FETCH_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/** Who signs for embedded wallets: EMBEDDED_WALLET_SIGNER, else `dev` with the dev identity provider. */
export function embeddedWalletSignerName(e: Env = env()): "dev" | "none" {
  return e.EMBEDDED_WALLET_SIGNER ?? (devIdpEnabled(e) ? "dev" : "none");
}

/** Where uploads are kept: STORAGE_DRIVER, else `s3` when S3_BUCKET is set, else `local`. */
export function storageDriver(e: Env = env()): "local" | "s3" {
  return e.STORAGE_DRIVER ?? (e.S3_BUCKET ? "s3" : "local");
}

/** The local storage driver's directory: STORAGE_DIR, else `$DATA_DIR/uploads`. */
export function storageDir(e: Env = env()): string {
  return path.resolve(e.STORAGE_DIR ?? path.join(dataDir(e), "uploads"));
}

/** The sandbox social platform: on in the embedded setup unless SANDBOX_SOCIAL says otherwise. */
export function sandboxSocialEnabled(e: Env = env()): boolean {
  return e.SANDBOX_SOCIAL ?? isEmbedded(e);
}

/** The origin sandbox post URLs live on (SANDBOX_ORIGIN, else the app's own URL). */
export function sandboxOrigin(e: Env = env()): string {
  return new URL(e.SANDBOX_ORIGIN ?? appUrl(e)).origin;
}

/**
 * The origins CORS_ORIGINS lists, normalised to `scheme://host[:port]`. A value that is not an
 * absolute http(s) origin, or `*`, is a configuration error: credentials are never open to all.
 */
export function corsOrigins(e: Env = env()): string[] {
  const out: string[] = [];
  for (const raw of (e.CORS_ORIGINS ?? "").split(",")) {
    const value = raw.trim();
    if (!value) continue;
    let origin: string;
    try {
      const url = new URL(value);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error();
      origin = url.origin;
    } catch {
      throw new ConfigError(`Invalid configuration: CORS_ORIGINS: "${value}" is not an origin`);
    }
    out.push(origin);
  }
  return out;
}

/** The environment for a child process (dev orchestration): this one's plus overrides. */
export function childEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
