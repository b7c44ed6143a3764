import { statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader } from "jose";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { POST as idTokenPOST } from "@/app/api/dev/id-token/route";
import { GET as jwksGET } from "@/app/api/dev/jwks/route";
import { DemoIdentityBanner } from "@/components/demo-identity-banner";
import { DEV_IDP_AUDIENCE, devIdpIssuer, devIdpKeyFile } from "@/lib/auth/dev-idp";
import { identityConfig, verifyIdentityToken } from "@/lib/auth/identity";
import { authSecretFile } from "@/lib/auth/secret";
import { childEnv, resetEnvCache } from "@/lib/env";
import { devIdToken, signIn, uniqueEmail } from "../helpers/auth";
import { call } from "../helpers/http";

// The dev identity provider: /api/dev/id-token and /api/dev/jwks.

const testNodeEnv = process.env.NODE_ENV;

afterEach(() => {
  delete process.env.DEV_IDP_ENABLED;
  (process.env as Record<string, string | undefined>).NODE_ENV = testNodeEnv;
  resetEnvCache();
});

/** As under `next start`: NODE_ENV=production, DEV_IDP_ENABLED as given. */
function asNextStart(devIdpEnabled?: string) {
  (process.env as Record<string, string | undefined>).NODE_ENV = "production";
  if (devIdpEnabled === undefined) delete process.env.DEV_IDP_ENABLED;
  else process.env.DEV_IDP_ENABLED = devIdpEnabled;
  resetEnvCache();
}

describe("dev identity provider", () => {
  it("end to end: POST /api/dev/id-token → POST /api/auth/session", async () => {
    const email = uniqueEmail("dev");
    const token = await call(idTokenPOST, { body: { email } });
    expect(token.status).toBe(200);
    expect(typeof token.body.idToken).toBe("string");
    const session = await call(sessionPOST, { body: { idToken: token.body.idToken } });
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(email);
  });

  it("publishes only the public key, and its tokens carry iss/aud/exp", async () => {
    const res = await call(jwksGET);
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    const [key] = res.body.keys;
    expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(key.d).toBeUndefined();
    const idToken = await devIdToken(uniqueEmail());
    expect(decodeProtectedHeader(idToken)).toMatchObject({ alg: "ES256", kid: key.kid });
    const identity = await verifyIdentityToken(idToken, identityConfig());
    expect(identity.issuer).toBe(devIdpIssuer());
  });

  it("its tokens verify against /api/dev/jwks fetched over HTTP, like any provider's", async () => {
    // Serve the real JWKS route on 127.0.0.1 and point a remote-JWKS config at it.
    const server = createServer(async (_req, res) => {
      const r = await jwksGET(new Request("http://localhost/api/dev/jwks"));
      res.writeHead(r.status, { "content-type": "application/json" });
      res.end(await r.text());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const email = uniqueEmail();
      const identity = await verifyIdentityToken(await devIdToken(email), {
        ...identityConfig(),
        jwksUrl: `http://127.0.0.1:${port}/api/dev/jwks`,
      });
      expect(identity).toMatchObject({ issuer: devIdpIssuer(), email });
      // A dev token is only good for the dev audience.
      const wrongAudience = await verifyIdentityToken(await devIdToken(email), {
        ...identityConfig(),
        audience: `${DEV_IDP_AUDIENCE}-other`,
      }).catch((e: { code?: string }) => e.code);
      expect(wrongAudience).toBe("invalid_token");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("keeps its key and the auth secret under DATA_DIR, readable only by the owner", async () => {
    await signIn();
    for (const file of [devIdpKeyFile(), authSecretFile()]) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it("validates the request body", async () => {
    const res = await call(idTokenPOST, { body: { email: "nope", walletAddress: "0x12" } });
    expect(res.status).toBe(400);
    const paths = (res.body.error.details as { path: string[] }[]).map((d) => d.path.join("."));
    expect(paths).toEqual(["email", "walletAddress"]);
  });

  it("when disabled: both routes are 404 not_found and sign-in is not configured", async () => {
    const idToken = await devIdToken(uniqueEmail()); // minted while enabled
    process.env.DEV_IDP_ENABLED = "0";
    resetEnvCache();
    const token = await call(idTokenPOST, { body: { email: "a@example.test" } });
    expect(token.status).toBe(404);
    expect(token.body.error.code).toBe("not_found");
    expect((await call(idTokenPOST, { rawBody: "{bad" })).status).toBe(404);
    const jwks = await call(jwksGET);
    expect(jwks.status).toBe(404);
    expect(jwks.body.error.code).toBe("not_found");
    // With no provider configured, a dev token is refused rather than trusted.
    const session = await call(sessionPOST, { body: { idToken } });
    expect(session.status).toBe(503);
    expect(session.body.error.code).toBe("not_configured");
  });

  it("is off under `next start` (production), the embedded setup included, unless DEV_IDP_ENABLED is set", async () => {
    asNextStart();
    expect((await call(idTokenPOST, { body: { email: uniqueEmail() } })).status).toBe(404);
    expect((await call(jwksGET)).status).toBe(404);
    expect(renderToStaticMarkup(DemoIdentityBanner())).toBe("");

    asNextStart("1");
    const token = await call(idTokenPOST, { body: { email: uniqueEmail() } });
    expect(token.status).toBe(200);
    expect((await call(jwksGET)).status).toBe(200);
  });

  it("shows a visible Demo identity banner on every page while it is on", () => {
    const html = renderToStaticMarkup(DemoIdentityBanner());
    expect(html).toContain('data-testid="demo-identity-banner"');
    expect(html).toContain("Demo identity");
    expect(html).toContain("anyone can sign in as any e-mail address");
  });

  it("the dev script passes DEV_IDP_ENABLED on to `next start` (npm run dev -- --prod)", () => {
    process.env.DEV_IDP_ENABLED = "1";
    expect(childEnv({ PORT: "3100" }).DEV_IDP_ENABLED).toBe("1");
  });
});
