import { describe, expect, it } from "vitest";
import {
  appUrl,
  ConfigError,
  devIdpEnabled,
  isEmbedded,
  parseEnv,
  productionProblems,
} from "@/lib/env";

describe("configuration", () => {
  it("has embedded defaults for everything", () => {
    const e = parseEnv({});
    expect(e.CHAIN).toBe("local");
    expect(e.PORT).toBe(3000);
    expect(isEmbedded(e)).toBe(true);
    expect(devIdpEnabled(e)).toBe(true);
    expect(productionProblems(e)).toEqual([]);
  });

  it("names the variable when a setting is malformed", () => {
    expect(() => parseEnv({ CHAIN: "mars" })).toThrow(ConfigError);
    expect(() => parseEnv({ CHAIN: "mars" })).toThrow(/CHAIN/);
    expect(() => parseEnv({ TREASURY_PRIVATE_KEY: "0x1234" })).toThrow(/TREASURY_PRIVATE_KEY/);
    expect(() => parseEnv({ RPC_URL: "not a url" })).toThrow(/RPC_URL/);
    expect(() => parseEnv({ AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET/);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it("lists what production on a real chain still lacks", () => {
    const e = parseEnv({
      NODE_ENV: "production",
      CHAIN: "base-sepolia",
      DATABASE_URL: "postgres://x@y/z",
    });
    expect(devIdpEnabled(e)).toBe(false);
    const problems = productionProblems(e).join("\n");
    for (const name of [
      "AUTH_SECRET",
      "TREASURY_PRIVATE_KEY",
      "REPUTATION_REGISTRY_ADDRESS",
      "IDP_JWKS_URL",
      "IDP_ISSUER",
      "IDP_AUDIENCE",
      "CRON_SECRET",
    ])
      expect(problems).toContain(name);
  });

  it("a deployment (not embedded) needs CRON_SECRET for the reconcile cron; the embedded setup generates one", () => {
    const deployment = {
      NODE_ENV: "production",
      DATABASE_URL: "postgres://x@y/z",
      AUTH_SECRET: "s".repeat(32),
      DEV_IDP_ENABLED: "1",
      S3_BUCKET: "uploads",
    };
    expect(productionProblems(parseEnv(deployment))).toEqual([
      "CRON_SECRET is required in production (the reconcile cron's bearer secret)",
    ]);
    expect(productionProblems(parseEnv({ ...deployment, CRON_SECRET: "c".repeat(32) }))).toEqual(
      [],
    );
    expect(productionProblems(parseEnv({ NODE_ENV: "production", DEV_IDP_ENABLED: "1" }))).toEqual(
      [],
    );
  });

  it("APP_URL defaults to the Vercel deployment's own URL there", () => {
    expect(appUrl(parseEnv({ VERCEL_URL: "milestone-abc.vercel.app" }))).toBe(
      "https://milestone-abc.vercel.app",
    );
    expect(appUrl(parseEnv({ VERCEL_URL: "x.vercel.app", APP_URL: "https://a.example/" }))).toBe(
      "https://a.example",
    );
    expect(appUrl(parseEnv({ PORT: "4000" }))).toBe("http://localhost:4000");
  });

  it("refuses the dev identity provider in production unless explicitly enabled", () => {
    const base = { NODE_ENV: "production", DATABASE_URL: "postgres://x@y/z" };
    expect(devIdpEnabled(parseEnv(base))).toBe(false);
    expect(devIdpEnabled(parseEnv({ ...base, DEV_IDP_ENABLED: "true" }))).toBe(true);
  });

  it("the embedded production build (next start on PGlite + local chain) has no dev provider by default either", () => {
    const embedded = parseEnv({ NODE_ENV: "production" });
    expect(isEmbedded(embedded)).toBe(true);
    expect(devIdpEnabled(embedded)).toBe(false);
    // …so it refuses to start without a real provider, and says how to run a demo.
    const problems = productionProblems(embedded).join("\n");
    expect(problems).toContain("IDP_JWKS_URL, IDP_ISSUER, IDP_AUDIENCE are required in production");
    expect(problems).toContain("DEV_IDP_ENABLED=1");
    const demo = parseEnv({ NODE_ENV: "production", DEV_IDP_ENABLED: "1" });
    expect(devIdpEnabled(demo)).toBe(true);
    expect(productionProblems(demo)).toEqual([]);
    // `next dev` and the tests: on.
    expect(devIdpEnabled(parseEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(devIdpEnabled(parseEnv({ NODE_ENV: "test" }))).toBe(true);
  });

  it("TRUSTED_PROXY is a number of proxy hops, 0 by default", () => {
    expect(parseEnv({}).TRUSTED_PROXY).toBe(0);
    expect(parseEnv({ TRUSTED_PROXY: "2" }).TRUSTED_PROXY).toBe(2);
    expect(() => parseEnv({ TRUSTED_PROXY: "yes" })).toThrow(/TRUSTED_PROXY/);
  });
});
