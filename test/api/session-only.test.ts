import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import * as meRoute from "@/app/api/auth/me/route";
import * as sessionRoute from "@/app/api/auth/session/route";
import * as keyRoute from "@/app/api/keys/[id]/route";
import * as keysRoute from "@/app/api/keys/route";
import * as readRoute from "@/app/api/notifications/read/route";
import * as handlesRoute from "@/app/api/profile/handles/route";
import * as profileRoute from "@/app/api/profile/route";
import { endpoints } from "@/lib/openapi";
import { devIdToken, signIn, type TestSession, uniqueEmail } from "../helpers/auth";
import { call } from "../helpers/http";
import { inProcessFetch } from "./in-process-fetch";

// Account and session management is session-only: signing out everywhere, the role, the
// payout wallet, the display name, platform handles and API keys. An API key — even one
// with every scope — or a bare identity token gets 403 forbidden there and changes nothing
// (a leaked key must not be able to lock the owner out or redirect payouts). The set is
// the reference's (`sessionOnly` in lib/openapi.ts): a new session-only endpoint needs an
// example request below, or this test fails.

const wallet = privateKeyToAccount(generatePrivateKey()).address;
const examples: Record<string, { path?: string; body?: unknown }> = {
  "DELETE /api/auth/session": {},
  "POST /api/auth/role": { body: { profileType: "organization" } },
  "GET /api/auth/identities": {},
  "GET /api/auth/wallet/nonce": { path: `/api/auth/wallet/nonce?address=${wallet}` },
  "POST /api/auth/wallet": {
    body: { address: wallet, message: "Link this wallet", signature: `0x${"11".repeat(65)}` },
  },
  "PATCH /api/profile": { body: { displayName: "Mallory" } },
  "PUT /api/profile/handles": { body: { platform: "instagram", handle: "mallory_takes_over" } },
  "DELETE /api/profile/handles": { path: "/api/profile/handles?platform=instagram" },
  "POST /api/profile/handles/verify": {
    body: { platform: "sandbox", handle: "mallory", postUrl: "https://example.invalid/p/1" },
  },
  "POST /api/keys": { body: { name: "minted by a key", scopes: ["read", "write", "settle"] } },
  "GET /api/keys": {},
  "PATCH /api/keys/{id}": { body: { name: "renamed by a key" } },
  "DELETE /api/keys/{id}": {},
};

const sessionOnly = endpoints.filter((e) => e.sessionOnly);

async function fullKey(session: TestSession) {
  const res = await call(keysRoute.POST, {
    path: "/api/keys",
    token: session.token,
    body: { name: "every scope", scopes: ["read", "write", "settle"] },
  });
  expect(res.status).toBe(201);
  return res.body as { key: string; apiKey: { id: string } };
}

function request(key: string, method: string, path: string, keyId: string) {
  const example = examples[`${method} ${path}`] ?? {};
  const url = `http://localhost${(example.path ?? path).replace("{id}", keyId)}`;
  return inProcessFetch(url, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(example.body ? { "content-type": "application/json" } : {}),
    },
    body: example.body ? JSON.stringify(example.body) : undefined,
  });
}

describe("account and session management is session-only", () => {
  it("the reference marks sign-out, role, wallet, profile, handles and keys session-only", () => {
    expect(sessionOnly.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      Object.keys(examples).sort(),
    );
    // reads of the account and everyday writes stay open to keys
    for (const open of ["GET /api/auth/me", "GET /api/profile", "GET /api/profile/handles"])
      expect(sessionOnly.map((e) => `${e.method} ${e.path}`)).not.toContain(open);
  });

  it.each(sessionOnly.map((e) => [`${e.method} ${e.path}`, e]))(
    "%s: an API key with every scope gets 403 forbidden",
    async (_name, e) => {
      const session = await signIn();
      const { key, apiKey } = await fullKey(session);
      const res = await request(key, e.method, e.path, apiKey.id);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(body.error.code).toBe("forbidden");
      expect(body.error.message).toMatch(/session/);
    },
  );

  it.each(sessionOnly.map((e) => [`${e.method} ${e.path}`, e]))(
    "%s: a bare identity token gets 403 forbidden",
    async (_name, e) => {
      const email = uniqueEmail("bare");
      const session = await signIn({ email });
      const { apiKey } = await fullKey(session);
      const res = await request(await devIdToken(email), e.method, e.path, apiKey.id);
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("forbidden");
    },
  );

  it("a write key can neither sign its owner out everywhere nor change the account", async () => {
    const session = await signIn();
    await call(profileRoute.PATCH, {
      method: "PATCH",
      token: session.token,
      body: { displayName: "Owner" },
    });
    const { key, apiKey } = await fullKey(session);
    for (const e of sessionOnly) await request(key, e.method, e.path, apiKey.id);

    // the session still works: nothing was revoked, switched, renamed or declared
    const me = await call(meRoute.GET, { token: session.token });
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(session.user);
    const profile = await call(profileRoute.GET, { token: session.token });
    expect(profile.body.profile.displayName).toBe("Owner");
    expect((await call(handlesRoute.GET, { token: session.token })).body.handles).toEqual([]);
    const keys = await call(keysRoute.GET, { path: "/api/keys", token: session.token });
    expect(keys.body.keys).toEqual([
      expect.objectContaining({ id: apiKey.id, name: "every scope", revokedAt: null }),
    ]);
    // and the key keeps doing what keys are for
    expect((await call(meRoute.GET, { token: key })).status).toBe(200);
    const write = await call(readRoute.POST, { token: key, body: { all: true } });
    expect(write.status).toBe(200);
  });

  it("signing out with a revoked key is a no-op (200), not a sign-out of the owner", async () => {
    const session = await signIn();
    const { key, apiKey } = await fullKey(session);
    await call(keyRoute.DELETE, {
      method: "DELETE",
      token: session.token,
      params: { id: apiKey.id },
    });
    const res = await call(sessionRoute.DELETE, { method: "DELETE", token: key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedOut: true });
    expect((await call(meRoute.GET, { token: session.token })).status).toBe(200);
  });

  it("with the session itself, sign-out everywhere still works", async () => {
    const session = await signIn();
    const res = await call(sessionRoute.DELETE, { method: "DELETE", token: session.token });
    expect(res.body).toEqual({ signedOut: true });
    expect((await call(meRoute.GET, { token: session.token })).status).toBe(401);
  });
});
