import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as rolePOST } from "@/app/api/auth/role/route";
import { corsOrigins, parseEnv, productionProblems, resetEnvCache } from "@/lib/env";
import { proxy } from "@/proxy";
import { signIn } from "../helpers/auth";
import { call } from "../helpers/http";

// CORS for /api (proxy.ts): only origins listed in CORS_ORIGINS get CORS headers, with
// credentials and their own origin echoed (never `*`); a preflight from any other origin
// fails. A listed origin still cannot write with the session cookie: that stays same-site.

const LISTED = "https://partner.example.test";
const OTHER = "https://evil.example.test";
const saved = process.env.CORS_ORIGINS;

beforeAll(() => {
  process.env.CORS_ORIGINS = `${LISTED}, https://second.example.test:8443/`;
  resetEnvCache();
});
afterAll(() => {
  if (saved === undefined) delete process.env.CORS_ORIGINS;
  else process.env.CORS_ORIGINS = saved;
  resetEnvCache();
});

const preflight = (origin: string, path = "/api/deals") =>
  proxy(
    new Request(`http://localhost${path}`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    }),
  );

describe("CORS preflight", () => {
  it("passes for a listed origin: its origin echoed, credentials, methods and headers", async () => {
    for (const origin of [LISTED, "https://second.example.test:8443"]) {
      const res = await preflight(origin);
      expect(res?.status).toBe(204);
      const h = res?.headers;
      expect(h?.get("access-control-allow-origin")).toBe(origin);
      expect(h?.get("access-control-allow-credentials")).toBe("true");
      expect(h?.get("access-control-allow-methods")).toContain("POST");
      expect(h?.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
      expect(h?.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
      expect(h?.get("vary")).toBe("Origin");
    }
  });

  it("fails for any other origin, without any CORS header", async () => {
    for (const origin of [
      OTHER,
      "null",
      "https://partner.example.test.evil.test",
      "http://partner.example.test",
    ]) {
      const res = await preflight(origin);
      expect(res?.status, origin).toBe(403);
      expect(res?.headers.get("access-control-allow-origin")).toBeNull();
      expect(res?.headers.get("access-control-allow-credentials")).toBeNull();
      expect((await res?.json())?.error.code).toBe("forbidden");
    }
  });
});

describe("CORS on actual requests", () => {
  const get = (origin?: string) =>
    proxy(new Request("http://localhost/api/auth/me", { headers: origin ? { origin } : {} }));

  it("a listed origin's response carries its origin, credentials and the readable headers", async () => {
    const h = (await get(LISTED))?.headers;
    expect(h?.get("access-control-allow-origin")).toBe(LISTED);
    expect(h?.get("access-control-allow-credentials")).toBe("true");
    expect(h?.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    expect(h?.get("access-control-expose-headers")).toContain("Retry-After");
  });

  it("another origin's gets none (the browser keeps the response from the page)", async () => {
    const h = (await get(OTHER))?.headers;
    expect(h?.get("access-control-allow-origin")).toBeNull();
    expect(h?.get("access-control-allow-credentials")).toBeNull();
    expect(h?.get("vary")).toBe("Origin");
  });

  it("a request without Origin (server to server, same-origin GET) passes untouched", async () => {
    expect(await get()).toBeUndefined();
    expect(
      await proxy(new Request("http://localhost/deals", { headers: { origin: LISTED } })),
    ).toBeUndefined();
  });
});

describe("the session cookie across origins", () => {
  it("a cookie-authenticated write from a listed origin is still refused (403 csrf_rejected)", async () => {
    const { cookie, token } = await signIn();
    const res = await call(rolePOST, {
      path: "/api/auth/role",
      cookie,
      origin: LISTED,
      body: { profileType: "organization" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("csrf_rejected");
    // reads with the cookie and writes with a bearer are what a listed origin can do
    expect((await call(meGET, { cookie, origin: LISTED })).status).toBe(200);
    const bearer = await call(rolePOST, {
      path: "/api/auth/role",
      token,
      origin: LISTED,
      body: { profileType: "organization" },
    });
    expect(bearer.status).toBe(200);
  });
});

describe("CORS_ORIGINS configuration", () => {
  it("normalises origins and refuses `*` or anything that is not an origin", () => {
    expect(
      corsOrigins(parseEnv({ CORS_ORIGINS: "https://A.example.test/, http://b.test:81" })),
    ).toEqual(["https://a.example.test", "http://b.test:81"]);
    for (const bad of ["*", "partner.example.test", "ftp://x.test"]) {
      const e = parseEnv({
        CORS_ORIGINS: bad,
        NODE_ENV: "production",
        AUTH_SECRET: "x".repeat(32),
      });
      expect(() => corsOrigins(e)).toThrow(/CORS_ORIGINS/);
      expect(productionProblems(e).join("; ")).toContain("CORS_ORIGINS");
    }
  });
});
