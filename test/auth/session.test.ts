import { and, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { DELETE as sessionDELETE, POST as sessionPOST } from "@/app/api/auth/session/route";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { devIdpIssuer, devIdpSubject } from "@/lib/auth/dev-idp";
import { env } from "@/lib/env";
import {
  devIdToken,
  SESSION_COOKIE_NAME,
  setCookieValue,
  signIn,
  uniqueEmail,
} from "../helpers/auth";
import { call } from "../helpers/http";

// POST/DELETE /api/auth/session through the dev identity provider (the embedded default):
// POST /api/dev/id-token → POST /api/auth/session, on the real handlers and database.

describe("POST /api/auth/session (dev identity provider)", () => {
  it("signs in: user, session token, expiry and an httpOnly cookie", async () => {
    const email = uniqueEmail("valid");
    const idToken = await devIdToken(email);
    const before = Date.now();
    const res = await call(sessionPOST, { body: { idToken, profileType: "organization" } });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email,
      profileType: "organization",
      walletAddress: null,
    });
    expect(typeof res.body.token).toBe("string");
    const expiresAt = Date.parse(res.body.expiresAt);
    const maxAge = env().SESSION_MAX_AGE_SECONDS * 1000;
    // Issued during the call (bracketed, whatever the machine's speed; 1 s for rounding).
    expect(expiresAt).toBeGreaterThanOrEqual(before + maxAge - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(after + maxAge + 1_000);

    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(new RegExp(`Max-Age=${env().SESSION_MAX_AGE_SECONDS}`));
    expect(cookie).not.toMatch(/Secure/); // not production
    expect(setCookieValue(res.headers)).toBe(res.body.token);

    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(row?.issuer).toBe(devIdpIssuer());
    expect(row?.subject).toBe(devIdpSubject(email));
  });

  it("the session token is an encrypted next-auth JWT, not a readable one", async () => {
    const { token } = await signIn();
    expect(token.split(".")).toHaveLength(5); // JWE compact serialization
    expect(() => decodeJwt(token)).toThrow();
  });

  it("a repeat login is the same user and keeps its role", async () => {
    const email = uniqueEmail("repeat");
    const first = await signIn({ email, profileType: "organization" });
    const again = await call(sessionPOST, { body: { idToken: await devIdToken(email) } });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(first.user.id);
    expect(again.body.user.profileType).toBe("organization");
  });

  it("a later login that passes profileType does not switch roles (that is /api/auth/role)", async () => {
    const email = uniqueEmail("role-kept");
    const first = await signIn({ email, profileType: "creator" });
    const again = await signIn({ email, profileType: "organization" });
    expect(again.user.id).toBe(first.user.id);
    expect(again.user.profileType).toBe("creator");
  });

  it("a first login without profileType makes a creator", async () => {
    const { user } = await signIn();
    expect(user.profileType).toBe("creator");
  });

  it("concurrent first logins make exactly one user", async () => {
    const email = uniqueEmail("concurrent");
    const idToken = await devIdToken(email);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(sessionPOST, { body: { idToken } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = new Set(results.map((r) => r.body.user.id));
    expect(ids.size).toBe(1);
    const db = await getDb();
    const rows = await db
      .select()
      .from(users)
      .where(and(eq(users.issuer, devIdpIssuer()), eq(users.subject, devIdpSubject(email))));
    expect(rows).toHaveLength(1);
  });

  it("the returned token works as a bearer token and as the cookie", async () => {
    const { user, token, cookie } = await signIn();
    const byBearer = await call(meGET, { token });
    const byCookie = await call(meGET, { cookie });
    expect(byBearer.status).toBe(200);
    expect(byCookie.status).toBe(200);
    expect(byBearer.body).toEqual({ user });
    expect(byCookie.body).toEqual({ user });
  });
});

describe("POST /api/auth/session request errors", () => {
  it("malformed JSON → 400 invalid_json", async () => {
    const res = await call(sessionPOST, { rawBody: '{"idToken": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: "invalid_json",
        message: "The request body is not valid JSON.",
        requestId: expect.stringMatching(/^req_/),
      },
    });
  });

  it("a wrong-typed body → 400 invalid_request with the paths", async () => {
    const res = await call(sessionPOST, { body: { idToken: 123, profileType: "admin" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    const paths = (res.body.error.details as { path: string[] }[]).map((d) => d.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["idToken", "profileType"]));
  });

  it("a missing body → 400 invalid_request", async () => {
    const res = await call(sessionPOST, { method: "POST" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("a body over 64 KiB → 413 payload_too_large", async () => {
    const res = await call(sessionPOST, { body: { idToken: "x".repeat(65 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("a garbage identity token → 401 invalid_token, nothing written", async () => {
    const res = await call(sessionPOST, { body: { idToken: "not-a-token" } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("DELETE /api/auth/session (sign-out)", () => {
  const signOut = (credentials: { token?: string; cookie?: string }) =>
    call(sessionDELETE, { method: "DELETE", ...credentials });
  const me = (credentials: { token?: string; cookie?: string }) => call(meGET, credentials);

  it("clears the cookie", async () => {
    const { cookie } = await signIn();
    const res = await signOut({ cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signedOut: true });
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
    expect(set).toMatch(/^milestone\.session-token=;/);
    expect(set).toMatch(/Max-Age=0/);
    expect(set).toMatch(/HttpOnly/);
  });

  it("signing out in the browser (cookie) revokes the same session's bearer token", async () => {
    const { token, cookie } = await signIn();
    expect((await me({ token })).status).toBe(200);
    expect((await signOut({ cookie })).status).toBe(200);
    for (const credentials of [{ token }, { cookie }]) {
      const res = await me(credentials);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_token");
    }
  });

  it("signing out with the bearer token revokes it, and every other session of the user", async () => {
    const email = uniqueEmail("sign-out");
    const first = await signIn({ email });
    const second = await signIn({ email });
    expect((await signOut({ token: first.token })).status).toBe(200);
    for (const token of [first.token, second.token])
      expect((await me({ token })).body.error.code).toBe("invalid_token");
    // Signing in again starts a new session that works.
    const third = await signIn({ email });
    expect(third.user.id).toBe(first.user.id);
    expect((await me({ token: third.token })).status).toBe(200);
  });

  it("with no session, or one already revoked, still answers 200 and clears the cookie", async () => {
    const { token } = await signIn();
    expect((await signOut({ token })).status).toBe(200);
    for (const res of [
      await signOut({}),
      await signOut({ token }),
      await signOut({ cookie: `${SESSION_COOKIE_NAME}=${token}` }),
    ]) {
      expect(res.status).toBe(200);
      expect(setCookieValue(res.headers)).toBe("");
    }
  });

  it("a cross-site sign-out by cookie is refused (CSRF) and the session lives on", async () => {
    const { token, cookie } = await signIn();
    const res = await call(sessionDELETE, {
      method: "DELETE",
      cookie,
      origin: "https://evil.example",
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("csrf_rejected");
    expect((await me({ token })).status).toBe(200);
  });
});

describe("a wallet and the dev identity provider", () => {
  it("no wallet unless asked: with the dev provider a wallet is proven by a signature or is its embedded one (test/auth/embedded-wallet.test.ts)", async () => {
    const { user } = await signIn();
    expect(user.walletAddress).toBeNull();
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row?.walletAddress).toBeNull();
    expect(row?.walletSource).toBeNull();
  });
});
