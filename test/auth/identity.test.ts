import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { type IdentityConfig, verifyIdentityToken } from "@/lib/auth/identity";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { call } from "../helpers/http";
import { forgedIdTokens, nowSeconds, startTestIdp, type TestIdp } from "../helpers/idp";

// An external identity provider: a real JWKS over HTTP on 127.0.0.1, configured through
// IDP_JWKS_URL / IDP_ISSUER / IDP_AUDIENCE exactly as a deployment would be.

let idp: TestIdp;
const saved = { ...process.env };

beforeAll(async () => {
  idp = await startTestIdp();
  process.env.IDP_JWKS_URL = idp.jwksUrl;
  process.env.IDP_ISSUER = idp.issuer;
  process.env.IDP_AUDIENCE = idp.audience;
  resetEnvCache();
});

afterAll(async () => {
  for (const k of ["IDP_JWKS_URL", "IDP_ISSUER", "IDP_AUDIENCE"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvCache();
  await idp.close();
});

const login = (idToken: string) => call(sessionPOST, { body: { idToken } });

const configFromIdp = (over: Partial<IdentityConfig> = {}): IdentityConfig => ({
  jwksUrl: idp.jwksUrl,
  issuer: idp.issuer,
  audience: idp.audience,
  emailClaim: "email",
  walletClaim: "wallet_address",
  ...over,
});

describe("POST /api/auth/session with an external provider", () => {
  it.each(["RS256", "ES256", "EdDSA"] as const)("accepts a valid %s token", async (alg) => {
    const res = await login(await idp.token({ alg, email: `ok-${alg}@example.test` }));
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(`ok-${alg}@example.test`);
  });

  it("repeat login with the same subject is the same user; the e-mail follows the provider", async () => {
    const sub = `repeat-${Date.now()}`;
    const first = await login(await idp.token({ sub, email: "old@example.test" }));
    const second = await login(await idp.token({ sub, email: "new@example.test" }));
    expect(second.body.user.id).toBe(first.body.user.id);
    expect(second.body.user.email).toBe("new@example.test");
  });

  const rejections = forgedIdTokens(() => idp);

  it.each(rejections)("rejects %s with 401 invalid_token", async (_name, make, reason) => {
    const token = await make();
    const res = await login(token);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
    expect(res.headers.getSetCookie()).toEqual([]);
    // …and for the intended reason, not an incidental one.
    const err = await verifyIdentityToken(token, configFromIdp()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("invalid_token");
    expect(((err as AppError).cause as { code?: string } | undefined)?.code ?? null).toBe(reason);
  });

  it("accepts small clock skew (expired 10 s ago, issued or valid from 10 s ahead)", async () => {
    for (const token of [
      await idp.token({ exp: nowSeconds() - 10 }),
      await idp.token({ iat: nowSeconds() + 10 }),
      await idp.token({ nbf: nowSeconds() + 10 }),
    ])
      expect((await login(token)).status).toBe(200);
  });

  it("fetches the JWKS once and caches it", async () => {
    const before = idp.fetches();
    for (let i = 0; i < 3; i++) expect((await login(await idp.token())).status).toBe(200);
    expect(idp.fetches()).toBe(before);
  });
});

// A real provider vouches for the wallet it puts in the token (its own login proved it), so
// that wallet is linked on login; the dev provider's is not (test/auth/session.test.ts).
describe("a wallet in an external provider's identity token", () => {
  const wallet = () => privateKeyToAccount(generatePrivateKey()).address;
  const loginWith = async (sub: string, address: string) =>
    login(await idp.token({ sub, claims: { wallet_address: address.toLowerCase() } }));

  it("is linked on login (walletSource identity_token)", async () => {
    const address = wallet();
    const res = await loginWith(`w-${randomUUID()}`, address);
    expect(res.status).toBe(200);
    expect(res.body.user.walletAddress).toBe(address);
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(row?.walletSource).toBe("identity_token");
  });

  it("that belongs to someone else does not fail the login and is not linked", async () => {
    const address = wallet();
    await loginWith(`w-${randomUUID()}`, address);
    const res = await loginWith(`w-${randomUUID()}`, address);
    expect(res.status).toBe(200);
    expect(res.body.user.walletAddress).toBeNull();
  });

  it("does not replace a wallet the user already has", async () => {
    const sub = `w-${randomUUID()}`;
    const first = wallet();
    const before = await loginWith(sub, first);
    const again = await loginWith(sub, wallet());
    expect(again.body.user.id).toBe(before.body.user.id);
    expect(again.body.user.walletAddress).toBe(first);
  });
});

describe("verifyIdentityToken with an explicit config", () => {
  const config = configFromIdp;
  const account = privateKeyToAccount(
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  );
  const compressed = () => {
    const raw = account.publicKey.slice(4); // x || y without 0x04
    const y = BigInt(`0x${raw.slice(64)}`);
    return `${y % 2n === 0n ? "02" : "03"}${raw.slice(0, 64)}`;
  };

  it("maps subject, e-mail (namespaced claim) and a plain wallet claim (any case → EIP-55)", async () => {
    const token = await idp.token({
      sub: "s-1",
      email: null,
      claims: {
        "https://milestone.example/email": "ns@example.test",
        wallet: account.address.toLowerCase(),
      },
    });
    const identity = await verifyIdentityToken(
      token,
      config({ emailClaim: "https://milestone.example/email", walletClaim: "wallet" }),
    );
    expect(identity).toEqual({
      issuer: idp.issuer,
      subject: "s-1",
      email: "ns@example.test",
      walletAddress: account.address,
    });
  });

  it("reads Web3Auth's wallets list: an app-scoped secp256k1 key", async () => {
    const token = await idp.token({
      claims: {
        wallets: [
          { public_key: "02".padEnd(66, "1"), type: "web3auth_threshold_key", curve: "secp256k1" },
          { public_key: compressed(), type: "web3auth_app_key", curve: "secp256k1" },
        ],
      },
    });
    const identity = await verifyIdentityToken(token, config({ walletClaim: "wallets" }));
    expect(identity.walletAddress).toBe(account.address);
  });

  it("reads Web3Auth's wallets list: an external wallet's address", async () => {
    const token = await idp.token({
      claims: { wallets: [{ address: account.address.toLowerCase(), type: "ethereum" }] },
    });
    const identity = await verifyIdentityToken(token, config({ walletClaim: "wallets" }));
    expect(identity.walletAddress).toBe(account.address);
  });

  it("a claim that is not an EVM address gives no wallet, not an error", async () => {
    const token = await idp.token({ claims: { wallet_address: "not-an-address" } });
    expect((await verifyIdentityToken(token, config())).walletAddress).toBeNull();
  });

  it("an unreachable JWKS is 503 unavailable, not a bad token", async () => {
    const token = await idp.token();
    const err = await verifyIdentityToken(
      token,
      config({ jwksUrl: "http://127.0.0.1:9/.well-known/jwks.json" }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("unavailable");
  });

  it("a partly configured provider is 503 not_configured", async () => {
    delete process.env.IDP_AUDIENCE;
    resetEnvCache();
    try {
      const res = await login(await idp.token());
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("not_configured");
    } finally {
      process.env.IDP_AUDIENCE = idp.audience;
      resetEnvCache();
    }
  });
});
