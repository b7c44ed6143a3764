import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as unlockRoute from "@/app/api/demo/unlock/route";
import { getDb } from "@/db/client";
import { rateLimits } from "@/db/schema";
import {
  DEMO_COOKIE,
  isValidUnlockToken,
  passphraseMatches,
  UNLOCK_LIMIT,
  UNLOCK_WINDOW_MS,
  unlockDemo,
} from "@/lib/demo/unlock";
import { resetEnvCache } from "@/lib/env";
import { clientKey } from "@/lib/rate-limit";
import { call } from "../helpers/http";

// The passphrase and the trusted-proxy setting live in process.env (read only through
// lib/env); tests set them and reset the cached configuration. Most tests pretend to sit
// behind one trusted proxy so that each can be its own client (X-Forwarded-For).
function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}
const withPassphrase = (value: string | undefined) => setEnv({ DEMO_PASSPHRASE: value });

beforeEach(() => setEnv({ TRUSTED_PROXY: "1" }));
afterEach(() => setEnv({ DEMO_PASSPHRASE: undefined, TRUSTED_PROXY: undefined }));

let client = 0;
const from = () => ({ "x-forwarded-for": `10.0.0.${++client}` });
const guess = (passphrase: string, headers: Record<string, string>) =>
  call(unlockRoute.POST, { body: { passphrase }, headers });

describe("POST /api/demo/unlock", () => {
  it("is not found when no passphrase is configured", async () => {
    withPassphrase(undefined);
    const res = await guess("anything", from());
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("sets a signed httpOnly cookie for the right passphrase", async () => {
    withPassphrase("open sesame");
    const res = await guess("open sesame", from());
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

  it("accepts the original interface's `{ code }` as the passphrase", async () => {
    withPassphrase("open sesame");
    const right = await call(unlockRoute.POST, { body: { code: "open sesame" }, headers: from() });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ unlocked: true });
    const wrong = await call(unlockRoute.POST, { body: { code: "nope" }, headers: from() });
    expect(wrong.status).toBe(401);
  });

  it("refuses a wrong passphrase with 401 and validates the body", async () => {
    withPassphrase("open sesame");
    const wrong = await guess("open sesamE", from());
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
    for (let i = 0; i < UNLOCK_LIMIT; i++)
      expect((await guess(`guess ${i}`, headers)).status).toBe(401);
    const limited = await guess("open sesame", headers);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await guess("open sesame", from())).status).toBe(200);
  });

  it("a burst of 30 concurrent wrong guesses: at most 10 are evaluated, the rest are 429", async () => {
    withPassphrase("open sesame");
    const headers = from();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => guess(`burst guess ${i}`, headers)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(UNLOCK_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - UNLOCK_LIMIT);
    // Locked out: even the right passphrase is refused…
    const right = await guess("open sesame", headers);
    expect(right.status).toBe(429);
    expect(right.headers.get("set-cookie")).toBeNull();
  });

  it("after a lockout the right passphrase works again once the window has passed", async () => {
    withPassphrase("open sesame");
    const db = await getDb();
    const key = `lockout-${++client}`;
    // Start of a window, so that "a window later" is unambiguous.
    const t0 = Math.ceil(Date.now() / UNLOCK_WINDOW_MS) * UNLOCK_WINDOW_MS + 1_000;
    for (let i = 0; i < UNLOCK_LIMIT; i++)
      await expect(unlockDemo(db, key, `wrong ${i}`, t0)).rejects.toMatchObject({
        code: "invalid_passphrase",
      });
    await expect(unlockDemo(db, key, "open sesame", t0 + 60_000)).rejects.toMatchObject({
      code: "rate_limited",
    });
    await expect(
      unlockDemo(db, key, "open sesame", t0 + UNLOCK_WINDOW_MS - 1_001),
    ).rejects.toMatchObject({ code: "rate_limited" });
    expect(
      isValidUnlockToken(await unlockDemo(db, key, "open sesame", t0 + UNLOCK_WINDOW_MS)),
    ).toBe(true);
  });

  it("right passphrases do not use up the allowance", async () => {
    withPassphrase("open sesame");
    const headers = from();
    for (let i = 0; i < UNLOCK_LIMIT + 5; i++)
      expect((await guess("open sesame", headers)).status).toBe(200);
    for (let i = 0; i < UNLOCK_LIMIT; i++)
      expect((await guess(`wrong ${i}`, headers)).status).toBe(401);
    expect((await guess("wrong again", headers)).status).toBe(429);
  });

  it("without a trusted proxy, X-Forwarded-For is ignored: spoofed addresses share one limit", async () => {
    setEnv({ TRUSTED_PROXY: undefined, DEMO_PASSPHRASE: "open sesame" });
    const db = await getDb();
    await db.delete(rateLimits).where(eq(rateLimits.bucket, "demo-unlock:any-client"));
    for (let i = 0; i < UNLOCK_LIMIT; i++)
      expect((await guess(`spoofed ${i}`, { "x-forwarded-for": `203.0.113.${i}` })).status).toBe(
        401,
      );
    const next = await guess("open sesame", {
      "x-forwarded-for": "198.51.100.7",
      "x-real-ip": "198.51.100.7",
    });
    expect(next.status).toBe(429);
    await db.delete(rateLimits).where(eq(rateLimits.bucket, "demo-unlock:any-client"));
  });

  it("compares in constant time over digests, whatever the lengths", () => {
    expect(passphraseMatches("a", "a")).toBe(true);
    expect(passphraseMatches("a", "ab")).toBe(false);
    expect(passphraseMatches("", "x".repeat(400))).toBe(false);
  });
});

describe("clientKey", () => {
  const req = (headers: Record<string, string>) => new Request("http://localhost/", { headers });

  it("without a trusted proxy: one key, whatever the headers claim", () => {
    const keys = new Set(
      (
        [{}, { "x-forwarded-for": "1.2.3.4" }, { "x-real-ip": "5.6.7.8" }] as Record<
          string,
          string
        >[]
      ).map((h) => clientKey(req(h), 0)),
    );
    expect([...keys]).toEqual(["any-client"]);
  });

  it("behind N trusted proxies: the N-th address from the right of X-Forwarded-For", () => {
    const xff = { "x-forwarded-for": "6.6.6.6, 1.2.3.4, 10.0.0.2" }; // spoofed, client, proxy 1
    expect(clientKey(req(xff), 1)).toBe("ip:10.0.0.2");
    expect(clientKey(req(xff), 2)).toBe("ip:1.2.3.4");
    // A client cannot pick its key by prepending: only what the proxies appended counts.
    expect(clientKey(req({ "x-forwarded-for": "9.9.9.9, 1.2.3.4" }), 1)).toBe("ip:1.2.3.4");
    // Fewer addresses than trusted proxies: it did not come through them.
    expect(clientKey(req({ "x-forwarded-for": "1.2.3.4" }), 2)).toBe("unproxied");
    expect(clientKey(req({}), 1)).toBe("unproxied");
  });
});
