import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as keysPOST } from "@/app/api/keys/route";
import { POST as milestoneRefundPOST } from "@/app/api/milestones/[id]/refund/route";
import { POST as rotatePOST } from "@/app/api/webhooks/[id]/rotate-secret/route";
import {
  DELETE as webhookDELETE,
  GET as webhookGET,
  PATCH as webhookPATCH,
} from "@/app/api/webhooks/[id]/route";
import { GET as webhooksGET, POST as webhooksPOST } from "@/app/api/webhooks/route";
import { type ApiKeyScope, apiKeyScopes } from "@/db/schema";
import { requireUser } from "@/lib/auth/caller";
import { resetEnvCache } from "@/lib/env";
import { route } from "@/lib/http";
import { type Operation, operations } from "../helpers/api-routes";
import { devIdToken, signIn, type TestSession, uniqueEmail } from "../helpers/auth";
import { type CallOptions, type CallResult, call } from "../helpers/http";

// Scopes are declared per route (route({ auth: requireUser, scope }), lib/http.ts) and
// enforced for API keys only. This walks every app/api/**/route.ts and calls every method
// it implements with one key per scope: a key without the declared scope gets 403
// insufficient_scope naming it; a key with it gets past the check (whatever the domain then
// answers: mostly 404, nothing here exists); a session token and an identity token are never
// scope-limited. Routes that take no API key at all are named below, one by one.

/** No credential needed: each named here on purpose (a new public route fails until added). */
const PUBLIC = [
  "POST /api/auth/session",
  "GET /api/chain",
  "POST /api/demo/unlock",
  "GET /api/dev/clock",
  "POST /api/dev/clock",
  "POST /api/dev/id-token",
  "GET /api/dev/jwks",
  "GET /api/health",
  "GET /api/openapi.json",
  "GET /api/relay/status",
  "GET /api/social/oembed",
];

/**
 * Signed in, but never with an API key: account and session management (a session only,
 * 403 forbidden to any key) and the cron secret (401 to any key).
 */
const NO_API_KEY: Record<string, 401 | 403> = {
  "DELETE /api/auth/session": 403,
  "POST /api/auth/role": 403,
  "GET /api/auth/identities": 403,
  "GET /api/auth/wallet/nonce": 403,
  "POST /api/auth/wallet": 403,
  "GET /api/cron/reconcile": 401,
  "POST /api/keys": 403,
  "GET /api/keys": 403,
  "PATCH /api/keys/{id}": 403,
  "DELETE /api/keys/{id}": 403,
  "PATCH /api/profile": 403,
  "PUT /api/profile/handles": 403,
  "DELETE /api/profile/handles": 403,
  "POST /api/profile/handles/verify": 403,
};

/** Anything that moves money needs settle (issue 21): held here against the declarations. */
const MOVES_MONEY = [
  "POST /api/settle",
  "POST /api/milestones/{id}/decision",
  "POST /api/milestones/{id}/refund",
  "POST /api/deals/{id}/refund",
  "POST /api/deals/{id}/cancel",
  "POST /api/deals/{id}/funding/authorization",
  "POST /api/deals/{id}/funding/deposit",
  "POST /api/faucet/drip",
  "POST /api/faucet/test-usdc",
  "POST /api/wallet/withdrawals",
  // a bonus is started (its escrow deal, funded like a deal) and released to the creator
  "POST /api/deals/{id}/bonuses",
  "POST /api/deals/{id}/bonuses/{bonusId}/release",
];

const address = "0x00000000000000000000000000000000000000a1";
const hash = `0x${"ab".repeat(32)}`;

/**
 * A body each route's own schema accepts (the body is validated before the caller is: a
 * route missing here answers 400 and fails the "lacking" assertion, naming it).
 */
const BODIES: Record<string, unknown> = {
  "POST /api/deals": {
    title: "Scope walk",
    milestones: [{ title: "One post", amount: 1 }],
  },
  "PATCH /api/deals/{id}": { title: "Scope walk, edited" },
  "PATCH /api/milestones/{id}": { metadata: { order: "1" } },
  "POST /api/deals/{id}/accept": {},
  "POST /api/deals/{id}/cancel": { txHash: hash },
  "POST /api/deals/{id}/bonuses": { amount: "1000000", message: "Great work." },
  "POST /api/deals/{id}/funding": { txHash: hash },
  "POST /api/deals/{id}/funding/deposit": { refundAddress: address },
  "POST /api/deals/{id}/funding/authorization": {
    brand: address,
    validBefore: 4_000_000_000,
    signature: `0x${"1b".repeat(65)}`,
  },
  "POST /api/faucet/drip": { address: "0x0000000000000000000000000000000000000000" },
  "POST /api/faucet/test-usdc": { address },
  "POST /api/milestones/{id}/appeal": { reason: "the post was on time" },
  "POST /api/milestones/{id}/decision": { approve: false, reason: "not the agreed post" },
  "POST /api/milestones/{id}/deliverable": { url: "https://example.com/p/1" },
  "POST /api/milestones/{id}/drafts": { caption: "hello #launch" },
  "POST /api/milestones/{id}/drafts/{draftId}/request-changes": { message: "add #launch" },
  "POST /api/milestones/{id}/precheck": { url: "https://example.com/p/1" },
  "POST /api/milestones/{id}/refund": { reason: "overdue" },
  "POST /api/milestones/{id}/request-changes": { message: "Pin the post, please." },
  "POST /api/deals/{id}/messages": { body: "Friday works." },
  "POST /api/deals/{id}/messages/read": {},
  "POST /api/notifications/read": { all: true },
  "POST /api/settle": { milestoneId: randomUUID() },
  "POST /api/social/posts": { handle: "scopewalk", caption: "hello" },
  "POST /api/uploads": { type: "image/png", size: 10 },
  "POST /api/verify": { milestoneId: randomUUID() },
  "POST /api/wallet/withdrawals": { to: address, amount: "1" },
  "POST /api/webhooks": { url: "http://127.0.0.1:9/hook" },
  "PATCH /api/webhooks/{id}": { enabled: false },
  "POST /api/webhooks/{id}/test": { type: "created" },
  // take no API key; a valid body shows the refusal is about the credential
  "POST /api/auth/role": { profileType: "creator" },
  "POST /api/auth/wallet": { address, message: "m", signature: "0x00" },
  "POST /api/keys": { name: "k", scopes: ["read"] },
  "PATCH /api/keys/{id}": { name: "k" },
  "PATCH /api/profile": { displayName: "Scope walk" },
  "PUT /api/profile/handles": { platform: "sandbox", handle: "scopewalk" },
  "POST /api/profile/handles/verify": {
    platform: "sandbox",
    handle: "scopewalk",
    postUrl: "https://example.com/p/1",
  },
};

const QUERIES: Record<string, string> = {
  "DELETE /api/profile/handles": "?platform=sandbox",
  "GET /api/faucet/drip": `?address=${address}`,
  "GET /api/faucet/test-usdc": `?address=${address}`,
};

/** The call for an operation: path parameters filled in (ids that exist nowhere). */
function request(op: Operation, token: string): CallOptions {
  const key = `${op.method} ${op.path}`;
  const params: Record<string, string> = {};
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    params[name] = name === "wallet" ? address : randomUUID();
    return params[name] as string;
  });
  return {
    method: op.method,
    path: `${path}${QUERIES[key] ?? ""}`,
    params,
    token,
    ...(key in BODIES ? { body: BODIES[key] } : {}),
  };
}

const send = (op: Operation, token: string) => call(op.handler, request(op, token));

const describeResult = (op: Operation, who: string, res: CallResult) =>
  `${op.method} ${op.path} with ${who}: ${res.status} ${JSON.stringify(res.body)}`;

let brand: TestSession;
let identityToken: string;
const keys = {} as Record<ApiKeyScope, string>;
let ops: Operation[] = [];
const saved = { ...process.env };

async function createKey(session: TestSession, scopes: ApiKeyScope[]): Promise<string> {
  const res = await call(keysPOST, {
    path: "/api/keys",
    token: session.token,
    body: { name: scopes.join("+"), scopes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.key as string;
}

beforeAll(async () => {
  // every route × every key is more requests than a minute's default allowance
  process.env.API_KEY_RATE_LIMIT = "100000";
  process.env.USER_RATE_LIMIT = "100000";
  process.env.FETCH_ALLOWED_HOSTS = "127.0.0.1:9"; // a registrable webhook URL; nothing listens
  process.env.CRON_SECRET = randomUUID(); // so the cron route answers a key with 401, not 503
  resetEnvCache();
  const email = uniqueEmail("scopes");
  brand = await signIn({ email, profileType: "organization" });
  identityToken = await devIdToken(email);
  for (const scope of apiKeyScopes) keys[scope] = await createKey(brand, [scope]);
  ops = await operations();
});

afterAll(() => {
  for (const k of ["API_KEY_RATE_LIMIT", "USER_RATE_LIMIT", "FETCH_ALLOWED_HOSTS", "CRON_SECRET"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvCache();
});

describe("every route declares how it is authenticated", () => {
  it("finds the routes, each made by route()", () => {
    expect(ops.length).toBeGreaterThan(40);
    const unwrapped = ops.filter((o) => !o.access).map((o) => `${o.method} ${o.path}`);
    expect(unwrapped, "handlers not made by route() (no declared access)").toEqual([]);
  });

  it("public and API-key-free routes are exactly the ones named here", () => {
    const of = (kind: string) =>
      ops
        .filter((o) => o.access?.auth === kind)
        .map((o) => `${o.method} ${o.path}`)
        .sort();
    expect(of("public")).toEqual([...PUBLIC].sort());
    expect(of("no_api_key")).toEqual(Object.keys(NO_API_KEY).sort());
  });

  it("anything that moves money needs settle; webhook management needs webhooks", () => {
    const scopeOf = (key: string) => {
      const op = ops.find((o) => `${o.method} ${o.path}` === key);
      return op?.access?.auth === "api_key" ? op.access.scope : undefined;
    };
    for (const key of MOVES_MONEY) expect(scopeOf(key), key).toBe("settle");
    for (const op of ops.filter((o) => o.path.startsWith("/api/webhooks")))
      expect(scopeOf(`${op.method} ${op.path}`), op.path).toBe("webhooks");
    // and settle is not handed out for what moves nothing
    const settle = ops
      .filter((o) => o.access?.auth === "api_key" && o.access.scope === "settle")
      .map((o) => `${o.method} ${o.path}`);
    expect(settle.sort()).toEqual([...MOVES_MONEY].sort());
  });
});

describe("no route takes API keys without a scope", () => {
  it("route() refuses, at definition, an authenticator that takes keys with no scope", () => {
    const handler = async () => Response.json({});
    // (the type refuses it too: hence the cast)
    expect(() => route({ auth: requireUser } as never, handler)).toThrow(/must declare its scope/);
    expect(() => route({ auth: requireUser, scope: "read" }, handler)).not.toThrow();
  });

  it("requireUser called without a scope refuses a key (fail closed), not a session", async () => {
    const req = (token: string) =>
      new Request("http://localhost/x", { headers: { authorization: `Bearer ${token}` } });
    await expect(requireUser(req(keys.read), { scope: undefined })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect((await requireUser(req(brand.token), { scope: undefined })).id).toBe(brand.user.id);
  });
});

describe("each scope against every route", () => {
  it("a key without the declared scope: 403 insufficient_scope; with it: past the check", async () => {
    const scoped = ops.filter((o) => o.access?.auth === "api_key");
    expect(scoped.length).toBeGreaterThan(30);
    for (const op of scoped) {
      const declared = op.access?.auth === "api_key" ? op.access.scope : undefined;
      for (const scope of apiKeyScopes) {
        const res = await send(op, keys[scope]);
        const why = describeResult(op, `a ${scope} key`, res);
        if (scope === declared) {
          expect(res.body?.error?.code, why).not.toBe("insufficient_scope");
          expect(res.status, why).not.toBe(401);
        } else {
          expect(res.status, why).toBe(403);
          expect(res.body.error, why).toMatchObject({
            code: "insufficient_scope",
            message: expect.stringContaining(`"${declared}" scope`),
            details: { required: declared, granted: [scope] },
          });
        }
      }
    }
  });

  it("sessions and identity tokens are not scope-limited", async () => {
    for (const op of ops.filter((o) => o.access?.auth === "api_key")) {
      for (const [who, token] of [
        ["a session token", brand.token],
        ["an identity token", identityToken],
      ] as const) {
        const res = await send(op, token);
        const why = describeResult(op, who, res);
        expect(res.body?.error?.code, why).not.toBe("insufficient_scope");
        expect(res.status, why).not.toBe(401);
      }
    }
  });

  it("routes that take no API key refuse every key, whatever its scope", async () => {
    for (const op of ops.filter((o) => o.access?.auth === "no_api_key")) {
      const status = NO_API_KEY[`${op.method} ${op.path}`];
      for (const scope of apiKeyScopes) {
        const res = await send(op, keys[scope]);
        const why = describeResult(op, `a ${scope} key`, res);
        expect(res.status, why).toBe(status);
        expect(res.body.error.code, why).toBe(status === 403 ? "forbidden" : "unauthenticated");
      }
      // even one holding every scope
      const all = await createKey(brand, [...apiKeyScopes]);
      expect((await send(op, all)).status).toBe(status);
    }
  });
});

describe("the holes issue 21 found", () => {
  it("a write key cannot refund a milestone (it moves escrowed money)", async () => {
    const write = await createKey(brand, ["read", "write"]);
    const id = randomUUID();
    const res = await call(milestoneRefundPOST, {
      path: `/api/milestones/${id}/refund`,
      params: { id },
      token: write,
      body: {},
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "insufficient_scope",
      details: { required: "settle" },
    });
  });

  it("a write key cannot create, re-target, delete or list webhooks, nor rotate or read their secret", async () => {
    // an endpoint the owner made with a session
    const made = await call(webhooksPOST, {
      path: "/api/webhooks",
      token: brand.token,
      body: { url: "http://127.0.0.1:9/hook" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.endpoint.id as string;
    const write = await createKey(brand, ["read", "write", "settle"]);
    const attempts: CallResult[] = [
      await call(webhooksPOST, {
        path: "/api/webhooks",
        token: write,
        body: { url: "https://hooks.example.com/x" },
      }),
      await call(webhooksGET, { path: "/api/webhooks", token: write }),
      await call(webhookGET, { path: `/api/webhooks/${id}`, params: { id }, token: write }),
      await call(webhookPATCH, {
        method: "PATCH",
        path: `/api/webhooks/${id}`,
        params: { id },
        token: write,
        body: { url: "https://attacker.example.com/x" },
      }),
      await call(webhookDELETE, {
        method: "DELETE",
        path: `/api/webhooks/${id}`,
        params: { id },
        token: write,
      }),
      await call(rotatePOST, {
        method: "POST",
        path: `/api/webhooks/${id}/rotate-secret`,
        params: { id },
        token: write,
      }),
    ];
    for (const res of attempts) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error).toMatchObject({
        code: "insufficient_scope",
        details: { required: "webhooks" },
      });
    }
    // untouched: same URL, still enabled
    const after = await call(webhookGET, {
      path: `/api/webhooks/${id}`,
      params: { id },
      token: brand.token,
    });
    expect(after.body.endpoint).toMatchObject({ url: "http://127.0.0.1:9/hook", enabled: true });
    // the webhooks scope is what it takes
    const hooks = await createKey(brand, ["webhooks"]);
    const listed = await call(webhooksGET, { path: "/api/webhooks", token: hooks });
    expect(listed.status).toBe(200);
    expect(listed.body.endpoints.map((e: { id: string }) => e.id)).toContain(id);
  });
});
