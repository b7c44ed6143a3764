import { afterEach, describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as rolePOST } from "@/app/api/auth/role/route";
import { isSameOriginRequest } from "@/lib/auth/same-origin";
import { resetEnvCache } from "@/lib/env";
import { signIn } from "../helpers/auth";
import { call } from "../helpers/http";

// CSRF beyond SameSite: a write authenticated by the session cookie must come from this
// app's origin (Origin header, else Sec-Fetch-Site: same-origin). Bearer calls and reads
// are not checked. Through POST /api/auth/role, a write every signed-in user can make.

afterEach(() => {
  delete process.env.APP_URL;
  resetEnvCache();
});

const toBrand = { profileType: "organization" } as const;

async function roleAfter(token: string) {
  return (await call(meGET, { token })).body.user.profileType as string;
}

describe("cookie-authenticated writes", () => {
  it("from this origin (as the browser's fetch sends it) → allowed", async () => {
    const { cookie, token } = await signIn();
    const res = await call(rolePOST, { cookie, body: toBrand }); // helper sends the Origin
    expect(res.status).toBe(200);
    expect(await roleAfter(token)).toBe("organization");
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["a look-alike host", { origin: "http://localhost.evil.example" }],
    ["another port of this host", { origin: "http://localhost:8080" }],
    ['Origin "null" (sandboxed frame)', { origin: "null" }],
    ["no Origin and no Sec-Fetch-Site", { origin: null }],
    [
      "no Origin, Sec-Fetch-Site: cross-site",
      { origin: null, headers: { "sec-fetch-site": "cross-site" } },
    ],
    [
      "no Origin, Sec-Fetch-Site: same-site",
      { origin: null, headers: { "sec-fetch-site": "same-site" } },
    ],
  ] as const)("%s → 403 csrf_rejected, nothing changed", async (_name, extra) => {
    const { cookie, token } = await signIn();
    const res = await call(rolePOST, { cookie, body: toBrand, ...extra });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("csrf_rejected");
    expect(res.body.error.message).toMatch(/Cross-site request refused/);
    expect(await roleAfter(token)).toBe("creator");
  });

  it("no Origin but Sec-Fetch-Site: same-origin → allowed", async () => {
    const { cookie } = await signIn();
    const res = await call(rolePOST, {
      cookie,
      body: toBrand,
      origin: null,
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(res.status).toBe(200);
  });

  it("the public origin in APP_URL is accepted behind a proxy that rewrites Host", async () => {
    process.env.APP_URL = "https://milestone.example";
    resetEnvCache();
    const { cookie } = await signIn();
    const res = await call(rolePOST, {
      cookie,
      body: toBrand,
      origin: "https://milestone.example",
    });
    expect(res.status).toBe(200);
  });

  it("a bearer-token write is not checked (a cross-site page cannot attach one)", async () => {
    const { token } = await signIn();
    const res = await call(rolePOST, { token, body: toBrand, origin: "https://evil.example" });
    expect(res.status).toBe(200);
  });

  it("a cookie-authenticated read is not checked", async () => {
    const { cookie } = await signIn();
    const res = await call(meGET, { cookie, origin: "https://evil.example" });
    expect(res.status).toBe(200);
  });
});

describe("isSameOriginRequest", () => {
  const req = (headers: Record<string, string>, url = "http://10.0.0.5:3000/api/x") =>
    new Request(url, { method: "POST", headers });

  it("matches the Host header when the request URL is an internal one", () => {
    expect(
      isSameOriginRequest(req({ origin: "http://app.example:8080", host: "app.example:8080" })),
    ).toBe(true);
    expect(
      isSameOriginRequest(req({ origin: "http://app.example", host: "app.example:8080" })),
    ).toBe(false);
  });

  it("refuses an Origin that is not a URL", () => {
    expect(isSameOriginRequest(req({ origin: "garbage" }))).toBe(false);
  });
});
