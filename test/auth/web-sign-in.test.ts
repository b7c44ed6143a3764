import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { devEmbeddedWallet, devIdpSubject } from "@/lib/auth/dev-idp";
import { resetEnvCache } from "@/lib/env";
import { devIdToken, SESSION_COOKIE_NAME, setCookieValue, uniqueEmail } from "../helpers/auth";
import {
  appAuth,
  CookieJar,
  loginAtProvider,
  runDevOidcProvider,
  startOidcSignIn,
} from "../helpers/browser-sign-in";
import { call } from "../helpers/http";
import { nowSeconds, startTestIdp, type TestIdp, unsignedToken } from "../helpers/idp";

// Browser sign-in through next-auth against the embedded OpenID provider (oidc-provider on a
// real port): authorization code + PKCE, state and nonce, login and consent pages, and the
// callback ending in the app's own session cookie. And what it refuses.

const idp = runDevOidcProvider();

/** A fresh browser up to the provider's redirect back (the callback not yet called). */
async function upToCallback(
  email: string,
  opts: { role?: string; embeddedWallet?: boolean; callbackUrl?: string } = {},
) {
  const jar = new CookieJar();
  const authorizationUrl = await startOidcSignIn(jar, opts);
  const callbackUrl = await loginAtProvider(new CookieJar(), authorizationUrl, {
    email,
    embeddedWallet: opts.embeddedWallet,
  });
  return { jar, authorizationUrl, callbackUrl: new URL(callbackUrl) };
}

const callback = (jar: CookieJar, url: URL) => appAuth(jar, `${url.pathname}${url.search}`);

function expectRefused(res: Response) {
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toMatch(/^\/sign-in\?error=/);
  expect(setCookieValue(res.headers)).toBeUndefined();
}

describe("sign-in through the embedded OpenID provider", () => {
  it("asks for code + PKCE (S256), state and nonce, with the app as the client", async () => {
    const url = new URL(await startOidcSignIn(new CookieJar()));
    expect(url.origin).toBe(idp().issuer);
    const q = url.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe("milestone-dev");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")).toBeTruthy();
    expect(q.get("nonce")).toBeTruthy();
    expect(q.get("scope")).toBe("openid email wallet");
  });

  it("login + consent → callback → the app's session cookie, and the chosen role", async () => {
    const email = uniqueEmail("oidc");
    const { jar, callbackUrl } = await upToCallback(email, {
      role: "organization",
      callbackUrl: "/brand",
    });
    expect(callbackUrl.pathname).toBe("/auth/callback/oidc");
    const res = await callback(jar, callbackUrl);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/\/brand$/);
    const token = setCookieValue(res.headers);
    expect(token).toBeTruthy();
    // next-auth's own session cookie never reaches the browser: the app's session is the one.
    expect(res.headers.getSetCookie().some((c) => c.includes("next-auth.session-token"))).toBe(
      false,
    );
    const me = await call(meGET, { cookie: `${SESSION_COOKIE_NAME}=${token}` });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email, profileType: "organization", walletAddress: null });
  });

  it("carries the embedded wallet claim when the person picks it", async () => {
    const email = uniqueEmail("oidc-wallet");
    const { jar, callbackUrl } = await upToCallback(email, { embeddedWallet: true });
    const res = await callback(jar, callbackUrl);
    const me = await call(meGET, {
      cookie: `${SESSION_COOKIE_NAME}=${setCookieValue(res.headers)}`,
    });
    expect(me.body.user).toMatchObject({
      email,
      profileType: "creator",
      walletAddress: devEmbeddedWallet(devIdpSubject(email)),
    });
  });

  it("is the same user as POST /api/auth/session with an ID token of the same issuer", async () => {
    const email = uniqueEmail("same-user");
    const api = await call(sessionPOST, { body: { idToken: await devIdToken(email) } });
    expect(api.status).toBe(200);
    expect(Object.keys(api.body).sort()).toEqual(["expiresAt", "token", "user"]);
    const { jar, callbackUrl } = await upToCallback(email);
    const res = await callback(jar, callbackUrl);
    const me = await call(meGET, {
      cookie: `${SESSION_COOKIE_NAME}=${setCookieValue(res.headers)}`,
    });
    expect(me.body.user.id).toBe(api.body.user.id);
  });

  it("refuses a replayed authorization code", async () => {
    const { jar, callbackUrl } = await upToCallback(uniqueEmail("replay"));
    const before = jar.copy();
    expect(setCookieValue((await callback(jar, callbackUrl)).headers)).toBeTruthy();
    // The same browser state and the same code again: the provider refuses the code.
    expectRefused(await callback(before, callbackUrl));
  });

  it("refuses a wrong state and a missing state", async () => {
    const { jar, callbackUrl } = await upToCallback(uniqueEmail("state"));
    const wrong = new URL(callbackUrl);
    wrong.searchParams.set("state", "not-the-state");
    expectRefused(await callback(jar.copy(), wrong));
    const missing = new URL(callbackUrl);
    missing.searchParams.delete("state");
    expectRefused(await callback(jar.copy(), missing));
    // The untouched answer still works in this browser…
    expect(setCookieValue((await callback(jar, callbackUrl)).headers)).toBeTruthy();
  });

  it("refuses the provider's answer in another browser (no state, PKCE verifier or nonce)", async () => {
    const { callbackUrl } = await upToCallback(uniqueEmail("other-browser"));
    expectRefused(await callback(new CookieJar(), callbackUrl));
  });

  it("serves only csrf, signin and callback under /auth", async () => {
    for (const path of ["/auth/session", "/auth/providers", "/auth/signout", "/auth/signin"])
      expect((await appAuth(new CookieJar(), path)).status).toBe(404);
  });
});

// A fake OpenID provider (a local server: discovery, authorize, token) whose token endpoint
// answers with an ID token made per case, signed by test/helpers/idp.ts's keys: what the
// browser path must refuse even when the provider itself misbehaves or is impersonated.
describe("sign-in through a configured OpenID provider that answers a bad ID token", () => {
  type Mode = "ok" | "other-issuer" | "other-audience" | "alg-none";
  let testIdp: TestIdp;
  let server: Server;
  let issuer: string;
  let mode: Mode = "ok";
  const nonces = new Map<string, string>();
  const clientId = "milestone-web-client";
  const keys = ["IDP_JWKS_URL", "IDP_ISSUER", "IDP_AUDIENCE", "OIDC_CLIENT_SECRET"] as const;
  const before = Object.fromEntries(keys.map((k) => [k, process.env[k]]));

  async function idToken(nonce: string): Promise<string> {
    const claims = { nonce, email: uniqueEmail("fake"), email_verified: true };
    if (mode === "alg-none")
      return unsignedToken({
        ...claims,
        sub: "x",
        iss: issuer,
        aud: clientId,
        iat: nowSeconds(),
        exp: nowSeconds() + 300,
      });
    return testIdp.token({
      claims,
      iss: mode === "other-issuer" ? "https://someone-else.example.test" : issuer,
      aud: mode === "other-audience" ? "another-client" : clientId,
    });
  }

  beforeAll(async () => {
    testIdp = await startTestIdp();
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? "/", issuer);
      if (url.pathname === "/.well-known/openid-configuration") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: testIdp.jwksUrl,
            response_types_supported: ["code"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
          }),
        );
      }
      if (url.pathname === "/authorize") {
        const code = randomUUID();
        nonces.set(code, url.searchParams.get("nonce") ?? "");
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (url.pathname === "/token") {
        let body = "";
        for await (const chunk of req) body += chunk;
        const code = new URLSearchParams(body).get("code") ?? "";
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            access_token: randomUUID(),
            token_type: "Bearer",
            expires_in: 300,
            id_token: await idToken(nonces.get(code) ?? ""),
          }),
        );
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(process.env, {
      IDP_JWKS_URL: testIdp.jwksUrl,
      IDP_ISSUER: issuer,
      IDP_AUDIENCE: clientId,
      OIDC_CLIENT_SECRET: "fake-client-secret",
    });
    resetEnvCache();
  });

  afterAll(async () => {
    for (const k of keys) {
      if (before[k] === undefined) delete process.env[k];
      else process.env[k] = before[k];
    }
    resetEnvCache();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await testIdp?.close();
  });

  async function signInWith(m: Mode): Promise<Response> {
    mode = m;
    const jar = new CookieJar();
    const authorize = await fetch(await startOidcSignIn(jar), { redirect: "manual" });
    const back = new URL(authorize.headers.get("location") ?? "");
    return callback(jar, back);
  }

  it("a good token from it signs in (the fake is a fair provider)", async () => {
    const res = await signInWith("ok");
    expect(res.status).toBe(302);
    expect(setCookieValue(res.headers)).toBeTruthy();
  });

  it.each(["other-issuer", "other-audience", "alg-none"] as const)(
    "refuses an ID token with %s",
    async (m) => {
      expectRefused(await signInWith(m));
    },
  );
});
