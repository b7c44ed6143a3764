import { createHmac, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  SignJWT,
} from "jose";
import { type Address, type Hex, isAddressEqual } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { readOrCreateSecretFile } from "@/lib/auth/local-secrets";
import { appUrl, dataDir, devIdpEnabled, devIdpUrl, env } from "@/lib/env";
import { notFound } from "@/lib/errors";
import { ROUTE_ACCESS, routeAccess, toErrorResponse } from "@/lib/http";

// The dev identity provider: the embedded setup's OpenID provider (lib/auth/dev-oidc-provider.ts,
// panva's oidc-provider, started by scripts/dev.ts at DEV_IDP_URL) and its keys. It signs ID
// tokens with a P-256 key generated once under DATA_DIR and publishes the public half at
// $DEV_IDP_URL/jwks (and /api/dev/jwks). POST /api/dev/id-token mints tokens as that same
// issuer, with that key, for scripts and tests. Its tokens are checked by the same verifier
// as a real provider's (lib/auth/identity.ts); nothing here is trusted by the session
// endpoint directly.

export const DEV_IDP_AUDIENCE = "milestone-dev";
const DEV_IDP_ALG = "ES256";
const TOKEN_LIFETIME = "10m";

export const devIdpIssuer = (e = env()) => devIdpUrl(e);
/** The provider's own JWKS route (oidc-provider's default path). */
export const devIdpJwksUrl = (e = env()) => `${devIdpUrl(e)}/jwks`;
export const devIdpKeyFile = (dir: string = dataDir()) => path.join(dir, "dev-idp-key.json");
export const devIdpClientSecretFile = (dir: string = dataDir()) =>
  path.join(dir, "dev-idp-client-secret");

/** The app's client secret at the embedded provider (client id DEV_IDP_AUDIENCE). */
export const devIdpClientSecret = () =>
  readOrCreateSecretFile(devIdpClientSecretFile(), () => randomBytes(32).toString("base64url"));

/** Where the embedded provider sends the browser back: next-auth's callback (lib/auth/web-sign-in.ts). */
export const devIdpRedirectUri = (e = env()) => `${appUrl(e)}/auth/callback/oidc`;

type DevKey = { kid: string; privateKey: CryptoKey; publicJwk: JWK; privateJwk: JWK };

const keys = new Map<string, Promise<DevKey>>();

function generatePrivateJwk(): string {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return JSON.stringify(privateKey.export({ format: "jwk" }));
}

async function loadKey(file: string): Promise<DevKey> {
  const privateJwk = JSON.parse(readOrCreateSecretFile(file, generatePrivateJwk)) as JWK;
  const { d: _private, ...publicJwk } = privateJwk;
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateKey = (await importJWK(privateJwk, DEV_IDP_ALG)) as CryptoKey;
  const meta = { kid, alg: DEV_IDP_ALG, use: "sig" };
  return {
    kid,
    privateKey,
    publicJwk: { ...publicJwk, ...meta },
    privateJwk: { ...privateJwk, ...meta },
  };
}

function devKey(): Promise<DevKey> {
  const file = devIdpKeyFile();
  let key = keys.get(file);
  if (!key) {
    key = loadKey(file);
    key.catch(() => keys.delete(file));
    keys.set(file, key);
  }
  return key;
}

/** The public key set served at /api/dev/jwks (never the private `d`). */
export async function devIdpJwks(): Promise<JSONWebKeySet> {
  return { keys: [(await devKey()).publicJwk] };
}

/** The signing key (private) for the embedded OpenID provider's `jwks` setting. */
export async function devIdpSigningJwk(): Promise<JWK> {
  return (await devKey()).privateJwk;
}

export const DEV_IDP_SIGNING_ALG = DEV_IDP_ALG;

/** A stable subject per e-mail, so signing in again with one address is the same user. */
export const devIdpSubject = (email: string) => `dev|${email.trim().toLowerCase()}`;

// ── The embedded wallet stand-in ──────────────────────────────────────────────────────
// Providers such as Web3Auth or Privy give a user without a browser wallet an embedded
// one, and put its address in the ID token: the provider holds (shares of) the key, and its
// login is the proof. The dev provider stands in for that: per subject it derives a wallet
// from a seed kept under DATA_DIR (server-held, never sent anywhere) and, when asked, puts
// that address — and only that address — in the token. It never signs an address a caller
// chose, so nobody can claim somebody else's wallet through it.

const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
export const devWalletSeedFile = (dir: string = dataDir()) => path.join(dir, "dev-idp-wallet-seed");

/** The private key of the dev provider's embedded wallet for a subject (deterministic). */
export function devEmbeddedWalletKey(subject: string): Hex {
  const seed = readOrCreateSecretFile(devWalletSeedFile(), () => randomBytes(32).toString("hex"));
  for (let counter = 0; ; counter++) {
    const digest = createHmac("sha256", seed)
      .update(`embedded-wallet:${counter}:${subject}`)
      .digest("hex");
    const n = BigInt(`0x${digest}`);
    if (n > 0n && n < SECP256K1_ORDER) return `0x${digest}`;
  }
}

/** The address of the dev provider's embedded wallet for a subject. */
export const devEmbeddedWallet = (subject: string): Address =>
  privateKeyToAccount(devEmbeddedWalletKey(subject)).address;

/** True when `address` is the embedded wallet this dev provider derives for `subject`. */
export function isDevEmbeddedWallet(subject: string, address: string): boolean {
  return isAddressEqual(devEmbeddedWallet(subject), address as Address);
}

/**
 * An ID token for `email` as a real provider would issue it: the configured e-mail and
 * wallet claim names (IDP_EMAIL_CLAIM / IDP_WALLET_CLAIM), iss, aud, sub, iat, exp. With
 * `embeddedWallet`, the wallet claim holds the subject's embedded wallet (see above).
 */
export async function signDevIdToken(p: { email: string; embeddedWallet?: boolean }) {
  const e = env();
  const { kid, privateKey } = await devKey();
  const claims: Record<string, unknown> = { [e.IDP_EMAIL_CLAIM]: p.email, email_verified: true };
  if (p.embeddedWallet) claims[e.IDP_WALLET_CLAIM] = devEmbeddedWallet(devIdpSubject(p.email));
  return new SignJWT(claims)
    .setProtectedHeader({ alg: DEV_IDP_ALG, kid, typ: "JWT" })
    .setIssuer(devIdpIssuer(e))
    .setAudience(DEV_IDP_AUDIENCE)
    .setSubject(devIdpSubject(p.email))
    .setIssuedAt()
    .setExpirationTime(TOKEN_LIFETIME)
    .setJti(randomUUID())
    .sign(privateKey);
}

/**
 * Wraps a dev route so it answers 404 when the dev provider is off — before reading the
 * body, as if the route did not exist.
 */
export function devOnly<C>(handler: (req: Request, ctx?: C) => Promise<Response>) {
  const gated = async (req: Request, ctx?: C): Promise<Response> =>
    devIdpEnabled() ? handler(req, ctx) : toErrorResponse(notFound("Page"), req);
  // keeps what the route() inside declared (its access: test/auth/route-scopes.test.ts)
  return Object.assign(gated, { [ROUTE_ACCESS]: routeAccess(handler) });
}
