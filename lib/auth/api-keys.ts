import { createHash, randomInt } from "node:crypto";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import {
  type ApiKeyRow,
  findApiKeyByHash,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
  updateApiKey,
} from "@/db/queries/api-keys";
import { type ApiKey, type ApiKeyScope, apiKeyScopes, type User } from "@/db/schema";
import { API_VERSIONS, CURRENT_API_VERSION } from "@/lib/api/versions";
import { AppError, notFound } from "@/lib/errors";
import { assertMetadataSize, metadataPatchSchema, metadataSchema } from "@/lib/metadata";
import { decodeCursor, encodeCursor, type Page, type PageQuery, toPage } from "@/lib/pagination";

// API keys for third parties: `mk_` + 40 base62 characters (~238 random bits), shown once
// at creation. Only its SHA-256 is stored — a fast hash is right here: the key is random and
// long, so there is nothing to brute-force, and it is checked on every request. A key acts
// as its owner within its scopes (apiKeyScopes: read, write, settle, webhooks): each route
// declares the one it needs in its route({ scope }) options (lib/http.ts), and
// lib/auth/caller.ts checks it with assertKeyScope.

export const API_KEY_PREFIX = "mk_";
const BODY_LENGTH = 40;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** How much of a key lists show: the prefix and 8 characters of the random part. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 8;
/** last_used_at is written at most this often per key (a write per request would cost more). */
export const LAST_USED_RESOLUTION_SECONDS = 60;

export const apiKeyPattern = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH}}$`);

/** True for a bearer that claims to be an API key (by its prefix; its format is checked later). */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

export function generateApiKey(): string {
  let body = "";
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomInt(BASE62.length)];
  return `${API_KEY_PREFIX}${body}`;
}

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

// ── Schemas ───────────────────────────────────────────────────────────────────────────

export const apiKeyScopeSchema = z.enum(apiKeyScopes);

/** A dated API version (lib/api/versions.ts): the key's requests are answered in it. */
export const apiVersionSchema = z
  .enum(API_VERSIONS.map((v) => v.date) as [string, ...string[]])
  .describe(
    `The API version the key's requests are answered in unless one sends Milestone-Version (default: the current one, ${CURRENT_API_VERSION})`,
  );

export const createApiKeyBody = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z
    .array(apiKeyScopeSchema)
    .min(1)
    .max(apiKeyScopes.length)
    .refine((s) => new Set(s).size === s.length, "must not repeat a scope"),
  /** When the key stops working (ISO 8601, in the future); omit for a key without expiry. */
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .refine((v) => v === undefined || Date.parse(v) > Date.now(), "must be in the future"),
  apiVersion: apiVersionSchema.optional(),
  metadata: metadataSchema.optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;

/** PATCH /api/keys/:id: rename, re-pin the API version, change metadata (at least one). */
export const updateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    apiVersion: apiVersionSchema.optional(),
    metadata: metadataPatchSchema.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "Send at least one of name, apiVersion, metadata.");

export const apiKeyParams = z.object({ id: z.uuid() });

// ── JSON ──────────────────────────────────────────────────────────────────────────────

/** The response schemas (documented in the OpenAPI reference; the tests parse responses with them). */
export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe("The key's visible start: mk_ and 8 characters"),
    scopes: z.array(apiKeyScopeSchema),
    expiresAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable().describe("To the minute"),
    revokedAt: z.iso.datetime().nullable(),
    apiVersion: z.string().describe("The API version the key's requests are answered in"),
    metadata: z.record(z.string(), z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "ApiKey" });
export type ApiKeyJson = z.infer<typeof apiKeySchema>;
export const createdApiKeyResponse = z.object({
  key: z.string().regex(apiKeyPattern).describe("The key itself: shown in this response only"),
  apiKey: apiKeySchema,
});
export const apiKeyPageResponse = z.object({
  keys: z.array(apiKeySchema),
  nextCursor: z.string().nullable(),
});
export const apiKeyResponse = z.object({ apiKey: apiKeySchema });

export function toApiKeyJson(key: ApiKey): ApiKeyJson {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    apiVersion: key.apiVersion,
    metadata: key.metadata,
    createdAt: key.createdAt.toISOString(),
  };
}

// ── Management (the owner, signed in with a session) ──────────────────────────────────

/** Creates a key; the secret is in the result only, never stored or shown again. */
export async function createApiKey(
  db: DbOrTx,
  p: { userId: string } & CreateApiKeyBody,
): Promise<{ key: string; apiKey: ApiKeyJson }> {
  const key = generateApiKey();
  const row = await insertApiKey(db, {
    userId: p.userId,
    name: p.name,
    prefix: key.slice(0, VISIBLE_LENGTH),
    hash: hashApiKey(key),
    scopes: apiKeyScopes.filter((s) => p.scopes.includes(s)),
    expiresAt: p.expiresAt ? new Date(p.expiresAt) : null,
    apiVersion: p.apiVersion ?? CURRENT_API_VERSION,
    metadata: p.metadata ?? {},
  });
  return { key, apiKey: toApiKeyJson(row) };
}

const cursorPosition = z.object({ createdAt: z.string().max(40), id: z.uuid() });

export async function listApiKeysPage(
  db: DbOrTx,
  p: { userId: string; page: PageQuery },
): Promise<Page<ApiKeyJson>> {
  const list = `api-keys:${p.userId}`;
  const after = p.page.cursor ? decodeCursor(list, p.page.cursor, cursorPosition) : undefined;
  const rows = await listApiKeys(db, { userId: p.userId, limit: p.page.limit + 1, after });
  return toPage(rows, p.page.limit, toApiKeyJson, (r: ApiKeyRow) =>
    encodeCursor(list, { createdAt: r.createdAtText, id: r.id }),
  );
}

/** Revokes one of the user's keys (idempotent); 404 when it is not theirs. */
export async function revokeUserApiKey(
  db: DbOrTx,
  p: { userId: string; id: string },
): Promise<ApiKeyJson> {
  const row = await revokeApiKey(db, p);
  if (!row) throw notFound("API key");
  return toApiKeyJson(row);
}

/** Changes a key that is not revoked (404 otherwise); metadata is merged in. */
export async function updateUserApiKey(
  db: DbOrTx,
  p: { userId: string; id: string } & z.infer<typeof updateApiKeyBody>,
): Promise<ApiKeyJson> {
  return db.transaction(async (tx) => {
    const row = await updateApiKey(tx, p);
    if (!row) throw notFound("API key");
    assertMetadataSize(row.metadata);
    return toApiKeyJson(row);
  });
}

// ── Use (a request authenticated by a key) ────────────────────────────────────────────

/**
 * The key's owner and the key, or 401 invalid_token when the key is malformed, unknown,
 * revoked or expired (one message for all, so a caller learns nothing about which).
 */
export async function authenticateApiKey(
  db: DbOrTx,
  token: string,
  now = new Date(),
): Promise<{ user: User; key: ApiKey }> {
  const invalid = () =>
    new AppError("invalid_token", "The API key is invalid, revoked or expired.");
  if (!apiKeyPattern.test(token)) throw invalid();
  const found = await findApiKeyByHash(db, hashApiKey(token));
  if (!found) throw invalid();
  const { key } = found;
  if (key.revokedAt || (key.expiresAt && key.expiresAt <= now)) throw invalid();
  const stale =
    !key.lastUsedAt ||
    now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000;
  if (stale) await touchApiKey(db, { id: key.id, everySeconds: LAST_USED_RESOLUTION_SECONDS });
  return found;
}

/**
 * 403 insufficient_scope unless the key carries the scope the route declared (its
 * `route({ scope })`, lib/http.ts). No scope declared means the route takes no API key
 * at all: refused too (fail closed).
 */
export function assertKeyScope(key: ApiKey, needed: ApiKeyScope | undefined): void {
  if (needed && key.scopes.includes(needed)) return;
  if (!needed) throw new AppError("forbidden", "This endpoint does not accept API keys.");
  throw new AppError(
    "insufficient_scope",
    `This API key lacks the "${needed}" scope this request needs (it has: ${key.scopes.join(", ")}).`,
    { details: { required: needed, granted: key.scopes } },
  );
}
