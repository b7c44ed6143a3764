import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { GET as keysGET } from "@/app/api/keys/route";
import { bearerKind } from "@/lib/auth/caller";
import { resetEnvCache } from "@/lib/env";
import { call } from "../helpers/http";
import { forgedIdTokens, startTestIdp, type TestIdp } from "../helpers/idp";

// The identity provider's ID token presented directly as `Authorization: Bearer` (as
// Web3Auth-based clients do): verified by the same code as POST /api/auth/session, with the
// same keys, algorithms, issuer, audience and expiry, and mapped to the same user.

let idp: TestIdp;
const saved = { ...process.env };

beforeAll(async () => {
  idp = await startTestIdp();
  process.env.IDP_JWKS_URL = idp.jwksUrl;
  process.env.IDP_ISSUER = idp.issuer;
  process.env.IDP_AUDIENCE = idp.audience;
  resetEnvCache();
});

afterAll(async () => {
  for (const k of ["IDP_JWKS_URL", "IDP_ISSUER", "IDP_AUDIENCE"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvCache();
  await idp.close();
});

const me = (token: string) => call(meGET, { path: "/api/auth/me", token });

describe("an identity token as the bearer", () => {
  it("is the same user as a session from the same identity, either way round", async () => {
    const sub = `bearer-${randomUUID()}`;
    const email = `${sub}@example.test`;
    // first seen as a bearer: the user is created as the session endpoint would
    const first = await me(await idp.token({ sub, email }));
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe(email);
    const login = await call(sessionPOST, { body: { idToken: await idp.token({ sub, email }) } });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(first.body.user.id);
    // session tokens keep working next to it
    expect((await me(login.body.token)).body.user.id).toBe(first.body.user.id);
    // and the e-mail follows the provider, as on sign-in
    const moved = await me(await idp.token({ sub, email: `new-${email}` }));
    expect(moved.body.user).toMatchObject({ id: first.body.user.id, email: `new-${email}` });
  });

  it("counts against the user's request limit", async () => {
    const res = await me(await idp.token());
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("600");
  });

  it.each(forgedIdTokens(() => idp))("refuses %s with 401 invalid_token", async (_name, make) => {
    const res = await me(await make());
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
  });

  it("cannot manage API keys (session only): 403, while a forged one stays 401", async () => {
    const good = await call(keysGET, { path: "/api/keys", token: await idp.token() });
    expect(good.status).toBe(403);
    expect(good.body.error.code).toBe("forbidden");
    const [, forge] = forgedIdTokens(() => idp)[1] ?? [];
    const bad = await call(keysGET, { path: "/api/keys", token: await forge?.() });
    expect(bad.status).toBe(401);
  });
});

describe("telling bearer kinds apart", () => {
  it("by shape: mk_ key, five-segment session (JWE), three-segment identity token (JWS)", async () => {
    const login = await call(sessionPOST, { body: { idToken: await idp.token() } });
    expect(bearerKind(login.body.token)).toBe("session");
    expect(bearerKind(await idp.token())).toBe("identity");
    expect(bearerKind(`mk_${"a".repeat(40)}`)).toBe("api_key");
    for (const other of ["", "garbage", "a.b", "a.b.c.d", "a.b.c.d.e.f"])
      expect(bearerKind(other)).toBe("unknown");
  });

  it("a session token's payload is not accepted as an identity token, nor the reverse", async () => {
    const idToken = await idp.token();
    const login = await call(sessionPOST, { body: { idToken } });
    // a session token presented to the session endpoint is not an identity token
    const reuse = await call(sessionPOST, { body: { idToken: login.body.token } });
    expect(reuse.status).toBe(401);
    for (const token of ["a.b.c.d", "x.y", `${idToken}.extra.part`]) {
      const res = await me(token);
      expect(res.status, token).toBe(401);
      expect(res.body.error.code).toBe("invalid_token");
    }
  });
});
