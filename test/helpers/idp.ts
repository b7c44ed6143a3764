import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JSONWebKeySet, SignJWT } from "jose";

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
