import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { mergedMetadata } from "@/db/queries/metadata";
import { type ApiKey, type ApiKeyScope, apiKeys, type User, users } from "@/db/schema";

// API key rows. Only the SHA-256 of a key is stored (api_keys_hash_key); every query that
// touches one user's keys filters by that user as well as by id.

/** The created_at of a row at full (microsecond) precision, for keyset cursors. */
const createdAtText = sql<string>`to_char(${apiKeys.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const columns = {
  id: apiKeys.id,
  userId: apiKeys.userId,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  hash: apiKeys.hash,
  scopes: apiKeys.scopes,
  expiresAt: apiKeys.expiresAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  apiVersion: apiKeys.apiVersion,
  metadata: apiKeys.metadata,
  createdAt: apiKeys.createdAt,
};

export type ApiKeyRow = ApiKey & { createdAtText: string };

export async function insertApiKey(
  db: DbOrTx,
  p: {
    userId: string;
    name: string;
    prefix: string;
    hash: string;
    scopes: ApiKeyScope[];
    expiresAt: Date | null;
    apiVersion: string;
    metadata: Record<string, string>;
  },
): Promise<ApiKey> {
  const [row] = await db.insert(apiKeys).values(p).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/**
 * One page of a user's keys, newest first, keyset on (created_at, id): `after` is the
 * position of the last row of the previous page. Revoked keys are listed too (with
 * revokedAt) so the owner sees what was turned off and when.
 */
export async function listApiKeys(
  db: DbOrTx,
  p: { userId: string; limit: number; after?: { createdAt: string; id: string } },
): Promise<ApiKeyRow[]> {
  const position = p.after
    ? sql`(${apiKeys.createdAt}, ${apiKeys.id}) < (${p.after.createdAt}::timestamptz, ${p.after.id}::uuid)`
    : undefined;
  return db
    .select({ ...columns, createdAtText })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, p.userId), position))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(p.limit);
}

/** The key with this hash and its owner (one indexed lookup per authenticated request). */
export async function findApiKeyByHash(
  db: DbOrTx,
  hash: string,
): Promise<{ key: ApiKey; user: User } | null> {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  return row ?? null;
}

/** Marks a key revoked (once: a second revoke keeps the first time). Null when not the user's. */
export async function revokeApiKey(
  db: DbOrTx,
  p: { userId: string; id: string },
): Promise<ApiKey | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, p.id), eq(apiKeys.userId, p.userId)))
    .returning();
  return row ?? null;
}

/** Renames a key, re-pins its API version, merges metadata in; null when not the user's or revoked. */
export async function updateApiKey(
  db: DbOrTx,
  p: {
    userId: string;
    id: string;
    name?: string;
    apiVersion?: string;
    metadata?: Record<string, string>;
  },
): Promise<ApiKey | null> {
  const [row] = await db
    .update(apiKeys)
    .set({
      ...(p.name !== undefined ? { name: p.name } : {}),
      ...(p.apiVersion !== undefined ? { apiVersion: p.apiVersion } : {}),
      ...(p.metadata !== undefined
        ? { metadata: mergedMetadata(apiKeys.metadata, p.metadata) }
        : {}),
    })
    .where(and(eq(apiKeys.id, p.id), eq(apiKeys.userId, p.userId), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? null;
}

/**
 * Records a use of the key, at most once per `everySeconds`: the condition makes a
 * concurrent second touch a no-op instead of another write.
 */
export async function touchApiKey(
  db: DbOrTx,
  p: { id: string; everySeconds: number },
): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, p.id),
        sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - make_interval(secs => ${p.everySeconds}))`,
      ),
    );
}
