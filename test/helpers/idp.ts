import { createPublicKey, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JSONWebKeySet,
  SignJWT,
} from "jose";

// A stand-in external identity provider for tests: RS256, ES256 and EdDSA keys published as
// a JWKS over real HTTP on 127.0.0.1 (port 0), and a builder for good and bad ID tokens.

export type Alg = "RS256" | "ES256" | "EdDSA";

export type TokenOptions = {
  alg?: Alg;
  kid?: string;
  /** Sign with this key instead of the published one (e.g. an attacker's key). */
  key?: CryptoKey;
  sub?: string;
  email?: string | null;
  iss?: string;
  aud?: string;
  /** Seconds since the epoch; null omits the claim. Default: in 5 minutes. */
  exp?: number | null;
  nbf?: number;
  /** Seconds since the epoch. Default: now. */
  iat?: number;
  claims?: Record<string, unknown>;
};

export type TestIdp = {
  jwksUrl: string;
  issuer: string;
  audience: string;
  jwks: JSONWebKeySet;
  keys: Record<Alg, { kid: string; privateKey: CryptoKey; publicKey: CryptoKey }>;
  token(opts?: TokenOptions): Promise<string>;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  close(): Promise<void>;
};

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function startTestIdp(): Promise<TestIdp> {
  const algs: Alg[] = ["RS256", "ES256", "EdDSA"];
  const keys = {} as TestIdp["keys"];
  const jwks: JSONWebKeySet = { keys: [] };
  for (const alg of algs) {
    const pair = await generateKeyPair(alg, { extractable: true });
    const kid = `test-${alg.toLowerCase()}`;
    keys[alg] = { kid, ...pair };
    jwks.keys.push({ ...(await exportJWK(pair.publicKey)), kid, alg, use: "sig" });
  }
  let fetchCount = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === "/.well-known/jwks.json") {
      fetchCount++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(jwks));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = "https://idp.example.test/";
  const audience = "milestone-test-client";

  async function token(o: TokenOptions = {}): Promise<string> {
    const alg = o.alg ?? "RS256";
    const claims: Record<string, unknown> = { ...o.claims };
    if (o.email !== null) claims.email = o.email ?? `user-${randomUUID()}@example.test`;
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg, kid: o.kid ?? keys[alg].kid, typ: "JWT" })
      .setIssuer(o.iss ?? issuer)
      .setAudience(o.aud ?? audience)
      .setSubject(o.sub ?? `subject-${randomUUID()}`)
      .setIssuedAt(o.iat);
    if (o.exp !== null) jwt.setExpirationTime(o.exp ?? nowSeconds() + 300);
    if (o.nbf !== undefined) jwt.setNotBefore(o.nbf);
    return jwt.sign(o.key ?? keys[alg].privateKey);
  }

  return {
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    issuer,
    audience,
    jwks,
    keys,
    token,
    fetches: () => fetchCount,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An unsigned token (`alg: none`) with the given header extras and payload. */
export function unsignedToken(
  payload: Record<string, unknown>,
  header: Record<string, unknown> = {},
) {
  return `${b64({ alg: "none", typ: "JWT", ...header })}.${b64(payload)}.`;
}

/** The token with its payload replaced (signature kept). */
export function withPayload(token: string, change: (p: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split(".");
  const decoded = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<
    string,
    unknown
  >;
  change(decoded);
  return `${header}.${b64(decoded)}.${signature}`;
}

/**
 * The bad-token set: [case, token maker, the jose error code behind the rejection (null: our
 * own claim checks)]. Every one must be a 401 wherever an identity token is accepted
 * (POST /api/auth/session, and as the bearer).
 */
export function forgedIdTokens(
  idp: () => TestIdp,
): Array<[string, () => Promise<string>, string | null]> {
  async function hs256(secret: Uint8Array) {
    return new SignJWT({ email: "attacker@example.test" })
      .setProtectedHeader({ alg: "HS256", kid: idp().keys.RS256.kid })
      .setIssuer(idp().issuer)
      .setAudience(idp().audience)
      .setSubject("attacker")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(secret);
  }
  return [
    [
      "alg none",
      async () =>
        unsignedToken(
          {
            sub: "x",
            email: "a@b.c",
            iss: idp().issuer,
            aud: idp().audience,
            exp: nowSeconds() + 300,
          },
          { kid: idp().keys.RS256.kid },
        ),
      "ERR_JOSE_ALG_NOT_ALLOWED",
    ],
    [
      "a token signed by another key with the same kid",
      async () =>
        idp().token({
          key: (await generateKeyPair("RS256")).privateKey,
          kid: idp().keys.RS256.kid,
        }),
      "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    ],
    [
      "HS256 signed with the provider's public key (PEM) as the HMAC secret",
      async () => hs256(new TextEncoder().encode(await exportSPKI(idp().keys.RS256.publicKey))),
      "ERR_JOSE_ALG_NOT_ALLOWED",
    ],
    [
      "HS256 signed with the provider's public key (DER) as the HMAC secret",
      async () =>
        hs256(
          createPublicKey(await exportSPKI(idp().keys.RS256.publicKey)).export({
            type: "spki",
            format: "der",
          }),
        ),
      "ERR_JOSE_ALG_NOT_ALLOWED",
    ],
    ["an expired token", () => idp().token({ exp: nowSeconds() - 3600 }), "ERR_JWT_EXPIRED"],
    [
      "a not-yet-valid token (nbf in the future)",
      () => idp().token({ nbf: nowSeconds() + 3600 }),
      "ERR_JWT_CLAIM_VALIDATION_FAILED",
    ],
    [
      "a token not valid for another minute (nbf beyond the 30 s clock tolerance)",
      () => idp().token({ nbf: nowSeconds() + 60 }),
      "ERR_JWT_CLAIM_VALIDATION_FAILED",
    ],
    [
      "a token issued a minute in the future (iat beyond the 30 s clock tolerance)",
      () => idp().token({ iat: nowSeconds() + 60 }),
      null,
    ],
    [
      "a wrong issuer",
      () => idp().token({ iss: "https://evil.example.test/" }),
      "ERR_JWT_CLAIM_VALIDATION_FAILED",
    ],
    [
      "a wrong audience",
      () => idp().token({ aud: "someone-else" }),
      "ERR_JWT_CLAIM_VALIDATION_FAILED",
    ],
    ["a token without exp", () => idp().token({ exp: null }), "ERR_JWT_CLAIM_VALIDATION_FAILED"],
    [
      "a tampered payload",
      async () => withPayload(await idp().token(), (p) => Object.assign(p, { sub: "admin" })),
      "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    ],
    [
      "a kid the provider does not publish",
      () => idp().token({ kid: "unknown-kid" }),
      "ERR_JWKS_NO_MATCHING_KEY",
    ],
    ["garbage", async () => "garbage", "ERR_JWS_INVALID"],
    ["three garbage segments", async () => "a.b.c", "ERR_JWS_INVALID"],
    ["a JWE-shaped string", async () => "a.b.c.d.e", "ERR_JWS_INVALID"],
    ["a token without an e-mail", () => idp().token({ email: null }), null],
    ["an unverified e-mail", () => idp().token({ claims: { email_verified: false } }), null],
  ];
}
