import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import type { Address } from "viem";
import { claimValue, emailFrom, walletFrom } from "@/lib/auth/claims";
import { DEV_IDP_AUDIENCE, devIdpIssuer, devIdpJwks, devIdpJwksUrl } from "@/lib/auth/dev-idp";
import { devIdpEnabled, type Env, env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// Verifies identity (ID) tokens from the configured provider: signature against its JWKS,
// pinned algorithms, issuer, audience, expiry required, small clock tolerance. The dev
// identity provider's tokens go through exactly this code; only where the keys come from
// may differ (see keyResolverFor).

/** Asymmetric algorithms only: an HMAC alg would let a public key act as a shared secret. */
export const IDENTITY_ALGORITHMS = ["RS256", "ES256", "EdDSA"];
export const CLOCK_TOLERANCE_SECONDS = 30;

export type IdentityConfig = {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** Claim holding the e-mail (IDP_EMAIL_CLAIM). */
  emailClaim: string;
  /** Claim holding the wallet: a string or Web3Auth's `wallets` list (IDP_WALLET_CLAIM). */
  walletClaim: string;
};

export type VerifiedIdentity = {
  issuer: string;
  subject: string;
  email: string;
  walletAddress: Address | null;
};

/** Resolves the verification key for a token's header (jose's JWKS resolver shape). */
export type KeyResolver = JWTVerifyGetKey;

/**
 * The provider from configuration: IDP_JWKS_URL / IDP_ISSUER / IDP_AUDIENCE when any is
 * set (then all three are required), else the dev identity provider when it is enabled.
 */
export function identityConfig(e: Env = env()): IdentityConfig {
  const claims = { emailClaim: e.IDP_EMAIL_CLAIM, walletClaim: e.IDP_WALLET_CLAIM };
  if (e.IDP_JWKS_URL || e.IDP_ISSUER || e.IDP_AUDIENCE) {
    if (!e.IDP_JWKS_URL || !e.IDP_ISSUER || !e.IDP_AUDIENCE)
      throw new AppError(
        "not_configured",
        "The identity provider is partly configured: IDP_JWKS_URL, IDP_ISSUER and IDP_AUDIENCE are all required.",
      );
    return { jwksUrl: e.IDP_JWKS_URL, issuer: e.IDP_ISSUER, audience: e.IDP_AUDIENCE, ...claims };
  }
  if (devIdpEnabled(e))
    return {
      jwksUrl: devIdpJwksUrl(e),
      issuer: devIdpIssuer(e),
      audience: DEV_IDP_AUDIENCE,
      ...claims,
    };
  throw new AppError("not_configured", "No identity provider is configured.");
}

/** True when sign-in goes through this app's own dev identity provider. */
export function usesDevIdentityProvider(config: IdentityConfig, e: Env = env()): boolean {
  return devIdpEnabled(e) && config.jwksUrl === devIdpJwksUrl(e);
}

/**
 * True for a provider whose claims prove nothing beyond the e-mail typed into a form: the
 * dev provider, however its keys are reached (its tokens always carry the dev audience).
 */
export function isDevProvider(config: IdentityConfig, e: Env = env()): boolean {
  return config.audience === DEV_IDP_AUDIENCE || usesDevIdentityProvider(config, e);
}

// Fetch failures are the provider's problem, not the token's: 503, retry is safe.
function isKeyFetchFailure(err: unknown): boolean {
  if (!(err instanceof errors.JOSEError)) return true; // fetch() network errors (TypeError)
  return (
    err instanceof errors.JWKSTimeout ||
    err instanceof errors.JWKSInvalid ||
    err.code === errors.JOSEError.code // non-200 or non-JSON JWKS response
  );
}

function remoteKeys(url: string): KeyResolver {
  const keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: 5_000 });
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (err) {
      if (!isKeyFetchFailure(err)) throw err;
      log.warn("identity provider keys unavailable", { url, err });
      throw new AppError("unavailable", "The identity provider's keys could not be fetched.", {
        cause: err,
      });
    }
  };
}

// The dev provider's key set is read from DATA_DIR rather than fetched from our own
// /api/dev/jwks. Fetching it over HTTP would also work in production, but it needs a
// running HTTP server (tests call handlers directly) and a request to ourselves from
// inside a request (which `next dev` compiles on demand). Only the key source differs;
// the keys are the ones /api/dev/jwks publishes and the checks below are identical.
const devKeys: KeyResolver = async (header, token) =>
  createLocalJWKSet(await devIdpJwks())(header, token);

const remoteResolvers = new Map<string, KeyResolver>();

/** The key resolver for a provider: its remote JWKS (cached per URL), or the dev key set. */
export function keyResolverFor(config: IdentityConfig): KeyResolver {
  if (usesDevIdentityProvider(config)) return devKeys;
  let resolver = remoteResolvers.get(config.jwksUrl);
  if (!resolver) {
    resolver = remoteKeys(config.jwksUrl);
    remoteResolvers.set(config.jwksUrl, resolver);
  }
  return resolver;
}

function invalidToken(message: string, cause?: unknown): AppError {
  return new AppError("invalid_token", message, { cause });
}

function identityFrom(payload: JWTPayload, config: IdentityConfig): VerifiedIdentity {
  if (typeof payload.sub !== "string" || payload.sub === "")
    throw invalidToken("The identity token has no subject.");
  // An address the provider says is unverified must not unlock invites sent to it.
  if (payload.email_verified === false)
    throw invalidToken("The identity token's e-mail address is not verified.");
  const email = emailFrom(claimValue(payload, config.emailClaim));
  if (!email)
    throw invalidToken(`The identity token has no e-mail address (claim "${config.emailClaim}").`);
  return {
    issuer: config.issuer,
    subject: payload.sub,
    email,
    walletAddress: walletFrom(claimValue(payload, config.walletClaim)),
  };
}

/**
 * Verifies an identity token and maps its claims. Any defect in the token → 401
 * invalid_token; the provider's keys being unreachable → 503 unavailable.
 */
export async function verifyIdentityToken(
  idToken: string,
  config: IdentityConfig,
  keys: KeyResolver = keyResolverFor(config),
): Promise<VerifiedIdentity> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      algorithms: IDENTITY_ALGORITHMS,
      issuer: config.issuer,
      audience: config.audience,
      requiredClaims: ["exp", "sub"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof errors.JOSEError) {
      log.debug("identity token rejected", { code: err.code, reason: err.message });
      throw invalidToken("The identity token is invalid or expired.", err);
    }
    throw err;
  }
  // jose checks nbf and exp against the clock but iat only with maxTokenAge: a token
  // "issued" in the future is as wrong as one not valid yet (a skewed or forging issuer).
  if (typeof payload.iat === "number" && payload.iat > nowSeconds() + CLOCK_TOLERANCE_SECONDS)
    throw invalidToken("The identity token was issued in the future.");
  return identityFrom(payload, config);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
