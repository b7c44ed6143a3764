import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as rolePOST } from "@/app/api/auth/role/route";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { optionalUser } from "@/lib/auth/caller";
import { SESSION_COOKIE_NAME, signIn } from "../helpers/auth";
import { call } from "../helpers/http";

// Resolving the caller (bearer first, else the cookie) on GET /api/auth/me and
// POST /api/auth/role.

describe("GET /api/auth/me", () => {
  it("authenticates by bearer token and by the session cookie", async () => {
    const { user, token, cookie } = await signIn({ profileType: "organization" });
    for (const credentials of [{ token }, { cookie }, { cookie: `other=1; ${cookie}; x=y` }]) {
      const res = await call(meGET, credentials);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user });
    }
  });

  it("no credentials → 401 unauthenticated", async () => {
    const res = await call(meGET);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
  });

  it("a garbage bearer token → 401 invalid_token", async () => {
    for (const header of ["Bearer garbage", "Bearer ", "bearer a.b.c.d.e"]) {
      const res = await call(meGET, { headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_token");
    }
  });

  it("a bad bearer token is not rescued by a good cookie", async () => {
    const { cookie } = await signIn();
    const res = await call(meGET, { token: "garbage", cookie });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
  });

  it("a non-Bearer Authorization header (Basic auth in front of the site) leaves the cookie in charge", async () => {
    const { user, cookie } = await signIn();
    const res = await call(meGET, { headers: { authorization: "Basic dXNlcjpwYXNz" }, cookie });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it("a forged cookie → 401 invalid_token", async () => {
    const res = await call(meGET, { cookie: `${SESSION_COOKIE_NAME}=garbage` });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
  });

  it("a deleted user's token stops working", async () => {
    const { user, token, cookie } = await signIn();
    const db = await getDb();
    await db.delete(users).where(eq(users.id, user.id));
    for (const credentials of [{ token }, { cookie }]) {
      const res = await call(meGET, credentials);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_token");
    }
  });
});

describe("optionalUser", () => {
  const req = (headers: Record<string, string> = {}) =>
    new Request("http://localhost/x", { headers });

  it("is null without credentials or with a stale cookie, the user with good ones", async () => {
    const { user, token } = await signIn();
    expect(await optionalUser(req())).toBeNull();
    expect(await optionalUser(req({ cookie: `${SESSION_COOKIE_NAME}=stale` }))).toBeNull();
    expect((await optionalUser(req({ authorization: `Bearer ${token}` })))?.id).toBe(user.id);
  });

  it("still rejects a bad bearer token", async () => {
    await expect(optionalUser(req({ authorization: "Bearer nope" }))).rejects.toMatchObject({
      code: "invalid_token",
    });
  });
});

describe("POST /api/auth/role", () => {
  it("switches the role both ways and the change is visible on /me", async () => {
    const { user, token } = await signIn();
    expect(user.profileType).toBe("creator");
    const toBrand = await call(rolePOST, { token, body: { profileType: "organization" } });
    expect(toBrand.status).toBe(200);
    expect(toBrand.body).toEqual({ user: { ...user, profileType: "organization" } });
    expect((await call(meGET, { token })).body.user.profileType).toBe("organization");
    const back = await call(rolePOST, { token, body: { profileType: "creator" } });
    expect(back.body.user.profileType).toBe("creator");
  });

  it("validates the role: 400 invalid_request for 'admin'", async () => {
    const { token } = await signIn();
    const res = await call(rolePOST, { token, body: { profileType: "admin" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details[0].path).toEqual(["profileType"]);
  });

  it("needs a caller", async () => {
    const res = await call(rolePOST, { body: { profileType: "creator" } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
  });
});
