import { afterEach, describe, expect, it } from "vitest";
import * as unlockRoute from "@/app/api/demo/unlock/route";
import { DEMO_COOKIE, isValidUnlockToken, passphraseMatches } from "@/lib/demo/unlock";
import { resetEnvCache } from "@/lib/env";
import { call } from "../helpers/http";

// The passphrase lives in process.env (read only through lib/env); each test sets it and
// resets the cached configuration.
function withPassphrase(value: string | undefined) {
  if (value === undefined) delete process.env.DEMO_PASSPHRASE;
  else process.env.DEMO_PASSPHRASE = value;
  resetEnvCache();
}

afterEach(() => withPassphrase(undefined));

let client = 0;
const from = () => ({ "x-forwarded-for": `10.0.0.${++client}` });

describe("POST /api/demo/unlock", () => {
  it("is not found when no passphrase is configured", async () => {
    withPassphrase(undefined);
    const res = await call(unlockRoute.POST, { body: { passphrase: "anything" }, headers: from() });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("sets a signed httpOnly cookie for the right passphrase", async () => {
    withPassphrase("open sesame");
    const res = await call(unlockRoute.POST, {
      body: { passphrase: "open sesame" },
      headers: from(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unlocked: true });
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`${DEMO_COOKIE}=`);
    expect(cookie).toContain("HttpOnly");
    const value = cookie.split(";")[0]?.split("=")[1];
    expect(isValidUnlockToken(value)).toBe(true);
    expect(isValidUnlockToken(`${value}x`)).toBe(false);
    expect(isValidUnlockToken("9999999999.forged")).toBe(false);
  });

  it("refuses a wrong passphrase with 401 and validates the body", async () => {
    withPassphrase("open sesame");
    const wrong = await call(unlockRoute.POST, {
      body: { passphrase: "open sesamE" },
      headers: from(),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("invalid_passphrase");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const missing = await call(unlockRoute.POST, { body: {}, headers: from() });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toEqual(["passphrase"]);
  });

  it("answers 429 with Retry-After after 10 failures from one client, counted in the database", async () => {
    withPassphrase("open sesame");
    const headers = from();
    for (let i = 0; i < 10; i++) {
      const res = await call(unlockRoute.POST, { body: { passphrase: `guess ${i}` }, headers });
      expect(res.status).toBe(401);
    }
    const limited = await call(unlockRoute.POST, { body: { passphrase: "open sesame" }, headers });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client is not affected.
    const other = await call(unlockRoute.POST, {
      body: { passphrase: "open sesame" },
      headers: from(),
    });
    expect(other.status).toBe(200);
  });

  it("compares in constant time over digests, whatever the lengths", () => {
    expect(passphraseMatches("a", "a")).toBe(true);
    expect(passphraseMatches("a", "ab")).toBe(false);
    expect(passphraseMatches("", "x".repeat(400))).toBe(false);
  });
});
