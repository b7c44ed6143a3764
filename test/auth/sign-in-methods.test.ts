import { describe, expect, it } from "vitest";
import { signInMethods } from "@/lib/auth/web-sign-in";
import { parseEnv, productionProblems } from "@/lib/env";

// Production starts with whatever way in it has: an identity provider or e-mail links (or the
// demo provider); with none it refuses, naming each. /sign-in offers exactly what is configured.

const deployment = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://x@y/z",
  AUTH_SECRET: "s".repeat(32),
  CRON_SECRET: "c".repeat(32),
};
const idp = {
  IDP_JWKS_URL: "https://idp.example/jwks",
  IDP_ISSUER: "https://idp.example",
  IDP_AUDIENCE: "client-1",
};
const mail = { MAIL_TRANSPORT: "http", MAIL_HTTP_URL: "https://mail.example/send" };
const signInProblems = (vars: Record<string, string>) =>
  productionProblems(parseEnv({ ...deployment, ...vars })).filter((p) => /IDP_|sign in/.test(p));

describe("ways to sign in, in production", () => {
  it("refuses to start with neither an identity provider nor a mail provider", () => {
    const [problem] = signInProblems({});
    expect(problem).toMatch(/^No way to sign in/);
    for (const name of [
      "IDP_JWKS_URL",
      "IDP_ISSUER",
      "IDP_AUDIENCE",
      "MAIL_HTTP_URL",
      "DEV_IDP_ENABLED=1",
    ])
      expect(problem).toContain(name);
  });

  it("starts with only a mail provider, and offers e-mail links (and wallets), no OIDC", () => {
    expect(signInProblems(mail)).toEqual([]);
    expect(signInMethods(parseEnv({ ...deployment, ...mail }))).toEqual({
      oidc: null,
      email: true,
      siwe: true,
    });
  });

  it("starts with only an identity provider; its browser sign-in needs the client secret", () => {
    expect(signInProblems(idp)).toEqual([]);
    expect(signInMethods(parseEnv({ ...deployment, ...idp }))).toMatchObject({
      oidc: null,
      email: false,
    });
    const withSecret = parseEnv({
      ...deployment,
      ...idp,
      OIDC_CLIENT_SECRET: "secret",
      OIDC_PROVIDER_NAME: "Auth0",
      SIWE_SIGN_IN: "0",
    });
    expect(signInMethods(withSecret)).toEqual({
      oidc: expect.objectContaining({
        name: "Auth0",
        issuer: "https://idp.example",
        clientId: "client-1",
        scope: "openid email profile",
        idTokenAlg: "RS256",
      }),
      email: false,
      siwe: false,
    });
  });

  it("names what a partly configured identity provider lacks", () => {
    expect(signInProblems({ IDP_ISSUER: "https://idp.example" })).toEqual([
      "IDP_JWKS_URL, IDP_AUDIENCE are required with the other IDP_* settings",
    ]);
  });

  it("the outbox mailer counts outside production only with the demo provider", () => {
    expect(signInMethods(parseEnv({ NODE_ENV: "development" })).email).toBe(true);
    expect(signInMethods(parseEnv({ ...deployment, ...idp })).email).toBe(false);
  });
});
