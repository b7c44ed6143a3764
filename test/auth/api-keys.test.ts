import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { DELETE as keyDELETE, PATCH as keyPATCH } from "@/app/api/keys/[id]/route";
import { GET as keysGET, POST as keysPOST } from "@/app/api/keys/route";
import { POST as readPOST } from "@/app/api/notifications/read/route";
import { POST as settlePOST } from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { type ApiKeyScope, apiKeys, rateLimits } from "@/db/schema";
import { apiKeyPageResponse, createdApiKeyResponse } from "@/lib/auth/api-keys";
import { resetEnvCache } from "@/lib/env";
import { pruneWindows } from "@/lib/rate-limit";
import { signIn, type TestSession } from "../helpers/auth";
import { call } from "../helpers/http";

// API keys: created with a session, shown once, stored as a SHA-256 only, used as
// `Authorization: Bearer mk_…` within their scopes, revoked or expired → 401, limited per
// key and per user (rows in the database), and unable to manage keys themselves.

type Scope = ApiKeyScope;

async function createKey(
  session: TestSession,
  body: { name?: string; scopes?: Scope[]; expiresAt?: string } = {},
) {
  const res = await call(keysPOST, {
    path: "/api/keys",
    token: session.token,
    body: { name: body.name ?? "ci", scopes: body.scopes ?? ["read"], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  createdApiKeyResponse.parse(res.body); // the documented response schema holds
  return res.body as { key: string; apiKey: { id: string; prefix: string; scopes: Scope[] } };
}

const me = (key: string) => call(meGET, { path: "/api/auth/me", token: key });

const saved = { ...process.env };
afterEach(() => {
  for (const k of ["API_KEY_RATE_LIMIT", "USER_RATE_LIMIT"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvCache();
});

describe("API key lifecycle", () => {
  it("create → use → scope refused → revoke → 401", async () => {
    const session = await signIn();
    const { key, apiKey } = await createKey(session, { name: "read only", scopes: ["read"] });
    expect(key).toMatch(/^mk_[0-9A-Za-z]{40}$/);
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey).toMatchObject({ name: "read only", scopes: ["read"], revokedAt: null });

    // use: the key acts as its owner
    const used = await me(key);
    expect(used.status).toBe(200);
    expect(used.body.user).toEqual(session.user);
    expect(used.headers.get("ratelimit-limit")).toBe("120");
    expect(Number(used.headers.get("ratelimit-remaining"))).toBeLessThan(120);

    // scope refused: a write with a read-only key
    const write = await call(readPOST, {
      path: "/api/notifications/read",
      token: key,
      body: { all: true },
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({
      code: "insufficient_scope",
      details: { required: "write", granted: ["read"] },
    });

    // revoke → 401 on the next use
    const revoked = await call(keyDELETE, {
      method: "DELETE",
      path: `/api/keys/${apiKey.id}`,
      token: session.token,
      params: { id: apiKey.id },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.apiKey.revokedAt).not.toBeNull();
    const after = await me(key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("invalid_token");
  });

  it("stores only the SHA-256 of the key (no column holds the key)", async () => {
    const session = await signIn();
    const { key, apiKey } = await createKey(session);
    const db = await getDb();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row?.hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(row?.prefix).toBe(key.slice(0, 11));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(11));
    // and the list never returns it either
    const list = await call(keysGET, { path: "/api/keys", token: session.token });
    apiKeyPageResponse.parse(list.body);
    expect(JSON.stringify(list.body)).not.toContain(key.slice(11));
    expect(list.body.keys[0]).not.toHaveProperty("hash");
  });

  it("records last use, at most once a minute", async () => {
    const session = await signIn();
    const { key, apiKey } = await createKey(session);
    const db = await getDb();
    const lastUsed = async () =>
      (await db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id)))[0]?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    expect((await me(key)).status).toBe(200);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    expect((await me(key)).status).toBe(200);
    expect(await lastUsed()).toEqual(first);
  });

  it("an expired key is 401; expiry must be in the future at creation", async () => {
    const session = await signIn();
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const { key, apiKey } = await createKey(session, { expiresAt: soon });
    expect((await me(key)).status).toBe(200);
    const db = await getDb();
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, apiKey.id));
    const res = await me(key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");

    const past = await call(keysPOST, {
      path: "/api/keys",
      token: session.token,
      body: { name: "x", scopes: ["read"], expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details[0].path).toEqual(["expiresAt"]);
  });

  it("refuses malformed, unknown and look-alike keys with 401", async () => {
    for (const token of ["mk_", "mk_short", `mk_${"A".repeat(40)}`, `mk_${"A".repeat(39)}!`]) {
      const res = await me(token);
      expect(res.status, token).toBe(401);
      expect(res.body.error.code).toBe("invalid_token");
    }
  });

  it("settle endpoints need the settle scope; write is not enough", async () => {
    const session = await signIn({ profileType: "organization" });
    const { key } = await createKey(session, { scopes: ["read", "write"] });
    const res = await call(settlePOST, {
      path: "/api/settle",
      token: key,
      body: { milestoneId: randomUUID() },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "insufficient_scope",
      details: { required: "settle" },
    });
    // with settle, the request gets past the scope check (to the domain's own 404)
    const { key: settleKey } = await createKey(session, { scopes: ["settle"] });
    const ok = await call(settlePOST, {
      path: "/api/settle",
      token: settleKey,
      body: { milestoneId: randomUUID() },
    });
    expect(ok.status).toBe(404);
  });

  it("a write key can write", async () => {
    const session = await signIn();
    const { key } = await createKey(session, { scopes: ["write"] });
    // (Switching the role is account management, session-only: test/api/session-only.test.ts.)
    const res = await call(readPOST, {
      path: "/api/notifications/read",
      token: key,
      body: { all: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ marked: 0, unreadCount: 0 });
  });
});

describe("key management", () => {
  it("is session-only: an API key cannot list, create or revoke keys", async () => {
    const session = await signIn();
    const { key, apiKey } = await createKey(session, { scopes: ["read", "write", "settle"] });
    const attempts = [
      await call(keysGET, { path: "/api/keys", token: key }),
      await call(keysPOST, {
        path: "/api/keys",
        token: key,
        body: { name: "x", scopes: ["read"] },
      }),
      await call(keyDELETE, {
        method: "DELETE",
        path: `/api/keys/${apiKey.id}`,
        token: key,
        params: { id: apiKey.id },
      }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    // a revoked key is still a 401 there, not a 403
    await call(keyDELETE, {
      method: "DELETE",
      path: `/api/keys/${apiKey.id}`,
      token: session.token,
      params: { id: apiKey.id },
    });
    expect((await call(keysGET, { path: "/api/keys", token: key })).status).toBe(401);
  });

  it("works with the session cookie from this site", async () => {
    const session = await signIn();
    const res = await call(keysPOST, {
      path: "/api/keys",
      cookie: session.cookie,
      body: { name: "from the settings page", scopes: ["read"] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("another user's key is 404 (revoke and rename), and stays usable", async () => {
    const owner = await signIn();
    const other = await signIn();
    const { key, apiKey } = await createKey(owner);
    const params = { id: apiKey.id };
    const del = await call(keyDELETE, { method: "DELETE", token: other.token, params });
    expect(del.status).toBe(404);
    const patch = await call(keyPATCH, {
      method: "PATCH",
      token: other.token,
      params,
      body: { name: "mine now" },
    });
    expect(patch.status).toBe(404);
    expect((await me(key)).status).toBe(200);
  });

  it("renames a key", async () => {
    const session = await signIn();
    const { apiKey } = await createKey(session, { name: "old" });
    const res = await call(keyPATCH, {
      method: "PATCH",
      token: session.token,
      params: { id: apiKey.id },
      body: { name: "  new name  " },
    });
    expect(res.status).toBe(200);
    expect(res.body.apiKey.name).toBe("new name");
  });

  it("validates the body", async () => {
    const session = await signIn();
    for (const body of [
      { name: "", scopes: ["read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: ["read", "read"] },
      { name: "x" },
    ]) {
      const res = await call(keysPOST, { path: "/api/keys", token: session.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("lists every key exactly once across pages, newest first", async () => {
    const session = await signIn();
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push((await createKey(session, { name: `k${i}` })).apiKey.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/api/keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await call(keysGET, { path, token: session.token });
      expect(res.status).toBe(200);
      expect(res.body.keys.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.keys.map((k: { id: string }) => k.id));
      // a key created between pages is newer than the cursor: it never shows up mid-list
      if (seen.length === 2) await createKey(session, { name: "late" });
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });

  it("refuses another user's cursor", async () => {
    const a = await signIn();
    const b = await signIn();
    for (let i = 0; i < 2; i++) await createKey(a);
    const page = await call(keysGET, { path: "/api/keys?limit=1", token: a.token });
    const cursor = encodeURIComponent(page.body.nextCursor);
    const res = await call(keysGET, { path: `/api/keys?cursor=${cursor}`, token: b.token });
    expect(res.status).toBe(400);
  });
});

describe("rate limits", () => {
  // Windows are whole minutes of the app's clock: hold it mid-minute so a run that happens
  // to straddle a minute boundary cannot reset the counts between two requests.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / 60_000) * 60_000 + 30_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("per key: 429 rate_limited with Retry-After and RateLimit-* once the key's limit is used", async () => {
    process.env.API_KEY_RATE_LIMIT = "3";
    resetEnvCache();
    const session = await signIn();
    const { key } = await createKey(session);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await me(key);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("ratelimit-remaining") ?? "");
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const res = await me(key);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("rate_limited");
    const retry = Number(res.headers.get("retry-after"));
    expect(retry).toBe(30);
    expect(res.headers.get("ratelimit-limit")).toBe("3");
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    expect(res.headers.get("ratelimit-reset")).toBe(String(retry));
    // another key of the same user has its own allowance
    const { key: second } = await createKey(session);
    expect((await me(second)).status).toBe(200);
    // the session token is not counted against the key
    expect((await call(meGET, { token: session.token })).status).toBe(200);
  });

  it("per user: all of a user's keys share one allowance", async () => {
    process.env.USER_RATE_LIMIT = "4";
    resetEnvCache();
    const session = await signIn();
    const keys = [(await createKey(session)).key, (await createKey(session)).key];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await me(keys[i % 2] as string)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // another user is not affected
    const other = await signIn();
    expect((await me((await createKey(other)).key)).status).toBe(200);
  });

  it("old windows are pruned, current ones kept", async () => {
    const db = await getDb();
    const bucket = `prune-test:${randomUUID()}`;
    const now = Date.now();
    await db.insert(rateLimits).values([
      { bucket, windowStart: new Date(now - 2 * 86_400_000), count: 5 },
      { bucket, windowStart: new Date(Math.floor(now / 60_000) * 60_000), count: 1 },
    ]);
    await pruneWindows(db, new Date(now - 86_400_000));
    const left = await db.select().from(rateLimits).where(eq(rateLimits.bucket, bucket));
    expect(left.map((r) => r.count)).toEqual([1]);
  });
});
