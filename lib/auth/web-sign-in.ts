import { randomBytes } from "node:crypto";
import NextAuth, { type AuthOptions } from "next-auth";
import { decode, encode } from "next-auth/jwt";
import type { CredentialsConfig } from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { isAddress } from "viem";
import type { Db } from "@/db/client";
import { setProfileType } from "@/db/queries/users";
import type { ProfileType, User } from "@/db/schema";
import { linkIdentity } from "@/lib/auth/accounts";
import { optionalUser } from "@/lib/auth/caller";
import { DEV_IDP_AUDIENCE, DEV_IDP_SIGNING_ALG, devIdpClientSecret } from "@/lib/auth/dev-idp";
import {
  BROWSER_NONCE_COOKIE,
  EMAIL_PROVIDER_ID,
  emailLinkIdentity,
  emailLinksEnabled,
  emailProvider,
  type LinkProblem,
  linkAdapter,
  signInByEmail,
} from "@/lib/auth/email-link";
import { identityConfig, usesDevIdentityProvider, verifyIdentityToken } from "@/lib/auth/identity";
import { authSecret } from "@/lib/auth/secret";
import { sessionCookie } from "@/lib/auth/session";
import { type SignInResult, signIn } from "@/lib/auth/sign-in";
import { issueSignInMessage, SIWE_PROVIDER_ID, signInWithEthereum } from "@/lib/auth/siwe-sign-in";
import { getDb } from "@/lib/db";
import { type Env, env, isProduction, setNextAuthUrl, siweSignInEnabled } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// Browser sign-in through next-auth 4 (the stable line; 5 is still a beta), used as its
// documentation describes for a generic OpenID Connect provider: the Authorization Code
// flow with PKCE, state and nonce (next-auth's `checks`, carried in its own short-lived
// cookies and checked by openid-client on the callback, which also verifies the ID token's
// signature, issuer, audience, algorithm and nonce). Its routes live under /auth (app/auth/
// [...nextauth]/route.ts), not /api/auth, so none of them shadows the API's
// /api/auth/session|me|role; only csrf, signin and callback are served.
//
// next-auth's own session is not used: on a successful callback its signIn callback passes
// the provider's ID token to the same signIn() as POST /api/auth/session (issuer, audience,
// pinned algorithms, JWKS, e-mail and wallet claims), and the response carries the app's
// session cookie (session_version, role switch, sign-out everywhere) instead of next-auth's.
//
// The handler is next-auth's "advanced initialization" form, NextAuth(req, res, options),
// with the request and response adapted from the Web Request here: options are built per
// request (the callback needs the outcome), and no Next request context is needed, so
// tests call it like any other handler.

export const WEB_AUTH_BASE_PATH = "/auth";
export const OIDC_PROVIDER_ID = "oidc";
/** The role picked on /sign-in, from the start of the redirect to the callback. */
export const SIGN_IN_ROLE_COOKIE = "milestone.sign-in-role";
const ROLE_COOKIE_MAX_AGE = 15 * 60;
/**
 * Linking a further way of signing in to the signed-in account (lib/auth/accounts.ts): set
 * when the profile starts a sign-in with link=1, it names the account (and its session
 * version) and the method, and the callback then links instead of signing in, only if the
 * same account is still signed in in this browser.
 */
export const LINK_INTENT_COOKIE = "milestone.link-intent";
const LINK_INTENT_MAX_AGE = 15 * 60;
/** The methods that can be linked here (a wallet is linked on the wallet page). */
const LINKABLE = new Set([OIDC_PROVIDER_ID, EMAIL_PROVIDER_ID]);
/** What is served, by method: the CSRF token, starting a sign-in, the provider's answer. */
const SERVED: Record<string, string[]> = {
  csrf: ["GET"],
  signin: ["POST"],
  callback: ["GET", "POST"],
  // Not next-auth's: the message a wallet signs for /auth/callback/siwe (GET /auth/siwe/nonce).
  siwe: ["GET"],
};
/** next-auth's session cookie: never handed out (the app's own session cookie is). */
const NEXT_AUTH_SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?=/;

export type OidcClient = {
  /** What /sign-in calls it: "Continue with …". */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  idTokenAlg: string;
  /** The embedded provider always shows its login and consent pages. */
  prompt?: string;
};

/**
 * The OpenID provider the browser signs in with: the configured one (IDP_ISSUER, client id
 * IDP_AUDIENCE) once OIDC_CLIENT_SECRET is set, else the embedded provider while the dev
 * identity provider is on, else none.
 */
export function oidcClient(e: Env = env()): OidcClient | null {
  let config: ReturnType<typeof identityConfig>;
  try {
    config = identityConfig(e);
  } catch {
    return null;
  }
  if (usesDevIdentityProvider(config, e))
    return {
      name: "Milestone demo ID",
      issuer: config.issuer,
      clientId: DEV_IDP_AUDIENCE,
      clientSecret: devIdpClientSecret(),
      scope: "openid email wallet",
      idTokenAlg: DEV_IDP_SIGNING_ALG,
      prompt: "login consent",
    };
  if (!e.OIDC_CLIENT_SECRET) return null;
  return {
    name: e.OIDC_PROVIDER_NAME,
    issuer: config.issuer,
    clientId: config.audience,
    clientSecret: e.OIDC_CLIENT_SECRET,
    scope: e.OIDC_SCOPES,
    idTokenAlg: e.OIDC_ID_TOKEN_ALG,
  };
}

function oidcProvider(client: OidcClient): OAuthConfig<Record<string, unknown>> {
  return {
    id: OIDC_PROVIDER_ID,
    name: client.name,
    type: "oauth",
    wellKnown: `${client.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    authorization: {
      params: { scope: client.scope, ...(client.prompt ? { prompt: client.prompt } : {}) },
    },
    client: { id_token_signed_response_alg: client.idTokenAlg },
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    profile: (profile) => ({ id: String(profile.sub), email: profile.email as string }),
  };
}

type Outcome = {
  result?: SignInResult;
  /** Linking (a link intent's callback): the account the method was linked to. */
  linked?: User;
  error?: unknown;
  link: { value?: LinkProblem };
};

type LinkIntent = { userId: string; sessionVersion: number; provider: string };

async function linkIntentCookie(user: User, provider: string): Promise<string> {
  const value = await encode({
    token: { sub: user.id, sv: user.sessionVersion, provider },
    secret: authSecret(),
    maxAge: LINK_INTENT_MAX_AGE,
  });
  return `${LINK_INTENT_COOKIE}=${value}; ${cookieAttrs()}; Max-Age=${LINK_INTENT_MAX_AGE}`;
}

const clearedLinkIntentCookie = () => `${LINK_INTENT_COOKIE}=; ${cookieAttrs()}; Max-Age=0`;

async function readLinkIntent(value: string): Promise<LinkIntent | null> {
  try {
    const t = await decode({ token: value, secret: authSecret() });
    if (typeof t?.sub !== "string" || typeof t.sv !== "number" || typeof t.provider !== "string")
      return null;
    return { userId: t.sub, sessionVersion: t.sv, provider: t.provider };
  } catch {
    return null;
  }
}

/**
 * The account a callback links to: the link intent's, when this browser is still signed in
 * as it (same session version); else null.
 */
async function linkingUser(req: Request, intent: LinkIntent): Promise<User | null> {
  const current = await optionalUser(req).catch(() => null);
  if (!current) return null;
  if (current.id !== intent.userId || current.sessionVersion !== intent.sessionVersion) return null;
  return current;
}

export type SignInMethodsConfig = { oidc: OidcClient | null; email: boolean; siwe: boolean };

/** Which methods are configured for browser sign-in (what /sign-in shows). */
export function signInMethods(e: Env = env()): SignInMethodsConfig {
  return { oidc: oidcClient(e), email: emailLinksEnabled(e), siwe: siweSignInEnabled(e) };
}

/** Sign-In with Ethereum as next-auth's credentials provider (the documented pattern). */
function siweProvider(
  db: Db,
  p: { browserNonce?: string; outcome: Outcome; role: ProfileType | null },
): CredentialsConfig {
  return {
    id: SIWE_PROVIDER_ID,
    name: "Ethereum",
    type: "credentials",
    credentials: {
      message: { label: "Message", type: "text" },
      signature: { label: "Signature", type: "text" },
    },
    async authorize(credentials) {
      try {
        const result = await signInWithEthereum(db, {
          message: String(credentials?.message ?? ""),
          signature: String(credentials?.signature ?? "") as `0x${string}`,
          browserNonce: p.browserNonce,
          profileType: p.role ?? undefined,
        });
        p.outcome.result = result;
        return { id: result.user.id, email: result.user.email };
      } catch (err) {
        p.outcome.error = err;
        return null;
      }
    },
  };
}

function authOptions(
  db: Db,
  methods: ReturnType<typeof signInMethods>,
  p: {
    providerId?: string;
    browserNonce?: string;
    outcome: Outcome;
    role: ProfileType | null;
    /** Link the method to this signed-in account instead of signing in. */
    linkTo?: User;
  },
): AuthOptions {
  const { outcome, role, linkTo } = p;
  const email = p.providerId === EMAIL_PROVIDER_ID && methods.email;
  return {
    secret: authSecret(),
    // One provider per request: the e-mail flow needs an adapter (its tokens), which
    // next-auth would also use for OAuth accounts, and refuses an e-mail provider without one.
    providers: email
      ? [emailProvider(db)]
      : methods.oidc && p.providerId === OIDC_PROVIDER_ID
        ? [oidcProvider(methods.oidc)]
        : methods.siwe && p.providerId === SIWE_PROVIDER_ID
          ? [siweProvider(db, p)]
          : [],
    ...(email ? { adapter: linkAdapter(db, p.browserNonce, outcome.link) } : {}),
    session: { strategy: "jwt" },
    pages: { signIn: "/sign-in", error: "/sign-in", verifyRequest: "/sign-in" },
    logger: {
      error: (code, metadata) => log.warn(`next-auth: ${code}`, { metadata }),
      warn: (code) => log.debug(`next-auth: ${code}`),
      debug: () => {},
    },
    callbacks: {
      // The provider's answer passed openid-client's checks; now the app's own, the same
      // as POST /api/auth/session. Any failure ends the sign-in (the handler says why).
      async signIn({ user, account, email: asking }) {
        // Asking for an e-mail link: nothing is proven yet, the link is sent.
        if (asking?.verificationRequest) return true;
        if (linkTo)
          try {
            outcome.linked = await linkMethod(db, linkTo, {
              provider: account?.provider,
              user,
              account,
            });
            return true;
          } catch (err) {
            outcome.error = err;
            return false;
          }
        try {
          const profileType = role ?? undefined;
          let result: SignInResult;
          if (account?.provider === SIWE_PROVIDER_ID) {
            // authorize() above signed the wallet in already.
            if (!outcome.result) return false;
            result = outcome.result;
          } else if (account?.provider === EMAIL_PROVIDER_ID) {
            if (!user.email) throw new AppError("invalid_request", "The link names no e-mail.");
            result = await signInByEmail(db, { email: user.email, profileType });
          } else {
            if (!account?.id_token)
              throw new AppError("invalid_token", "The provider sent no ID token.");
            result = await signIn(db, { idToken: account.id_token, profileType });
          }
          // As the sign-in form always did: the role picked there becomes the active one.
          if (role && result.user.profileType !== role)
            result.user =
              (await setProfileType(db, { userId: result.user.id, profileType: role })) ??
              result.user;
          outcome.result = result;
          return true;
        } catch (err) {
          outcome.error = err;
          return false;
        }
      },
    },
  };
}

/**
 * The callback's link step: the method's proven identity, linked to `to` (whose session stays
 * as it is: no new one is made). Returns the account as linking left it.
 */
async function linkMethod(
  db: Db,
  to: User,
  p: { provider?: string; user: { email?: string | null }; account: { id_token?: string } | null },
): Promise<User> {
  let linked: { user: User };
  if (p.provider === EMAIL_PROVIDER_ID) {
    if (!p.user.email) throw new AppError("invalid_request", "The link names no e-mail.");
    linked = await linkIdentity(db, {
      userId: to.id,
      ...emailLinkIdentity(p.user.email),
      email: p.user.email.trim(),
    });
  } else if (p.provider === OIDC_PROVIDER_ID) {
    if (!p.account?.id_token) throw new AppError("invalid_token", "The provider sent no ID token.");
    // The same checks as signing in (issuer, audience, algorithm, keys, e-mail claim).
    const identity = await verifyIdentityToken(p.account.id_token, identityConfig());
    linked = await linkIdentity(db, {
      userId: to.id,
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
    });
  } else {
    throw new AppError("invalid_request", "This way of signing in cannot be linked here.");
  }
  return linked.user;
}

function cookiesOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out[name] ??= decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // a malformed value is as good as none
    }
  }
  return out;
}

async function bodyOf(req: Request): Promise<Record<string, string> | undefined> {
  if (req.method !== "POST") return undefined;
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(await req.text()));
  if (type.includes("application/json")) {
    const json = (await req.json().catch(() => null)) as unknown;
    return json && typeof json === "object" ? (json as Record<string, string>) : {};
  }
  return {};
}

const asRole = (v: unknown): ProfileType | null =>
  v === "creator" || v === "organization" ? v : null;

const cookieAttrs = () =>
  `Path=${WEB_AUTH_BASE_PATH}; HttpOnly; SameSite=Lax${isProduction() ? "; Secure" : ""}`;

function browserNonceCookie(nonce: string): string {
  return `${BROWSER_NONCE_COOKIE}=${nonce}; ${cookieAttrs()}; Max-Age=${24 * 3600}`;
}

function roleCookie(role: ProfileType | null): string {
  const attrs = cookieAttrs();
  return role
    ? `${SIGN_IN_ROLE_COOKIE}=${role}; ${attrs}; Max-Age=${ROLE_COOKIE_MAX_AGE}`
    : `${SIGN_IN_ROLE_COOKIE}=; ${attrs}; Max-Age=0`;
}

/** The code /sign-in explains: the reason an AppError gives, else its code. */
function errorCode(err: unknown): string {
  if (!(err instanceof AppError)) return "sign_in_failed";
  const reason = (err.details as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? reason : err.code;
}

/** GET /auth/siwe/nonce?address=0x…&chainId=N: a nonce for this browser and the message. */
async function siweNonce(url: URL, browserNonce: string, newNonce?: string): Promise<Response> {
  const address = url.searchParams.get("address") ?? "";
  const chainId = Number(url.searchParams.get("chainId") ?? "") || undefined;
  if (!isAddress(address))
    return Response.json(
      { error: { code: "invalid_request", message: "address must be an EVM address." } },
      { status: 400 },
    );
  const issued = await issueSignInMessage(await getDb(), { browserNonce, address, chainId });
  const headers = new Headers({ "cache-control": "no-store" });
  if (newNonce) headers.append("set-cookie", browserNonceCookie(newNonce));
  return Response.json(issued, { headers });
}

/** `/sign-in?error=<code>` for a failed sign-in: the page says what went wrong. */
function errorRedirect(code: string): string {
  return `/sign-in?error=${encodeURIComponent(code)}`;
}

type Collected = { status: number; headers: Headers; body?: string };

/** The bits of Next's API response next-auth's handler writes to. */
function responseCollector(collected: Collected) {
  const res = {
    status(code: number) {
      collected.status = code;
      return res;
    },
    setHeader(name: string, value: string | string[]) {
      collected.headers.delete(name);
      for (const v of Array.isArray(value) ? value : [value]) collected.headers.append(name, v);
      return res;
    },
    getHeader(name: string) {
      if (name.toLowerCase() === "set-cookie") return collected.headers.getSetCookie();
      return collected.headers.get(name) ?? undefined;
    },
    end() {
      return res;
    },
    send(body: unknown) {
      collected.body = typeof body === "string" ? body : JSON.stringify(body);
      return res;
    },
    json(body: unknown) {
      collected.headers.set("content-type", "application/json");
      collected.body = JSON.stringify(body);
      return res;
    },
  };
  return res;
}

/**
 * Serves /auth/<action>/<provider> through next-auth: `csrf` (GET), `signin/oidc` (POST,
 * with csrfToken, callbackUrl, role and json=true: answers `{ url }` of the provider's
 * authorization endpoint) and `callback/oidc` (GET, from the provider). Anything else is 404.
 */
export async function handleWebAuth(req: Request, segments: string[]): Promise<Response> {
  const [action, providerId] = segments;
  const methods = signInMethods();
  const offered =
    action === "csrf" ||
    (providerId === OIDC_PROVIDER_ID && methods.oidc) ||
    (providerId === EMAIL_PROVIDER_ID && methods.email) ||
    (providerId === SIWE_PROVIDER_ID && methods.siwe) ||
    (action === "siwe" && providerId === "nonce" && methods.siwe);
  if (!action || !SERVED[action]?.includes(req.method) || !offered)
    return Response.json(
      { error: { code: "not_found", message: "Page not found." } },
      { status: 404 },
    );
  setNextAuthUrl(WEB_AUTH_BASE_PATH);
  const url = new URL(req.url);
  const cookies = cookiesOf(req);
  const body = await bodyOf(req);
  const role = action === "signin" ? asRole(body?.role) : asRole(cookies[SIGN_IN_ROLE_COOKIE]);
  // The browser's own nonce (kept if it has one, so two links asked for both work).
  const asksForNonce =
    (action === "signin" && providerId === EMAIL_PROVIDER_ID) || action === "siwe";
  const newNonce =
    asksForNonce && !cookies[BROWSER_NONCE_COOKIE]
      ? randomBytes(32).toString("base64url")
      : undefined;
  const browserNonce = cookies[BROWSER_NONCE_COOKIE] ?? newNonce;
  if (action === "siwe") return siweNonce(url, browserNonce as string, newNonce);

  // Linking (from the profile): started only by a signed-in account, for a linkable method.
  let startsLink: string | undefined;
  if (action === "signin" && body?.link === "1") {
    const user = await optionalUser(req).catch(() => null);
    if (!user || !providerId || !LINKABLE.has(providerId))
      return Response.json(
        { url: `/profile?link_error=${user ? "link_unsupported" : "link_needs_session"}` },
        { headers: { "cache-control": "no-store" } },
      );
    startsLink = await linkIntentCookie(user, providerId);
  }
  // A callback for the method a link intent names links (or is refused); a stale intent for
  // another method is ignored, and cleared below.
  const linkCookie = action === "callback" ? cookies[LINK_INTENT_COOKIE] : undefined;
  const intent = linkCookie ? await readLinkIntent(linkCookie) : null;
  const linksHere = intent !== null && intent.provider === providerId;
  const linkTo = linksHere ? await linkingUser(req, intent) : undefined;
  if (linksHere && !linkTo) {
    // This browser is no longer signed in as the account that started the link: neither
    // link nor sign in.
    const headers = new Headers({
      "cache-control": "no-store",
      location: "/profile?link_error=link_needs_session",
    });
    headers.append("set-cookie", clearedLinkIntentCookie());
    return new Response(null, { status: 302, headers });
  }
  const outcome: Outcome = { link: {} };
  const collected: Collected = { status: 200, headers: new Headers() };
  const options = authOptions(await getDb(), methods, {
    providerId,
    browserNonce,
    outcome,
    role: linkTo ? null : role,
    linkTo: linkTo ?? undefined,
  });
  await NextAuth(
    {
      method: req.method,
      query: { ...Object.fromEntries(url.searchParams), nextauth: segments },
      body,
      cookies,
      headers: Object.fromEntries(req.headers),
    } as never,
    responseCollector(collected) as never,
    options,
  );

  const headers = new Headers({ "cache-control": "no-store" });
  for (const [name, value] of collected.headers)
    if (name !== "set-cookie") headers.set(name, value);
  for (const c of collected.headers.getSetCookie())
    if (!NEXT_AUTH_SESSION_COOKIE.test(c)) headers.append("set-cookie", c);

  if (action === "signin") headers.append("set-cookie", roleCookie(startsLink ? null : role));
  if (startsLink) headers.append("set-cookie", startsLink);
  if (newNonce) headers.append("set-cookie", browserNonceCookie(newNonce));
  if (action === "callback" && linkTo) {
    headers.append("set-cookie", clearedLinkIntentCookie());
    const code = outcome.linked ? null : (outcome.link.value ?? errorCode(outcome.error));
    if (outcome.error && !(outcome.error instanceof AppError))
      log.error("linking a sign-in method failed", { err: outcome.error });
    headers.set(
      "location",
      code ? `/profile?link_error=${encodeURIComponent(code)}` : `/profile?linked=${providerId}`,
    );
    return new Response(null, { status: 302, headers });
  }
  if (action === "callback") {
    headers.append("set-cookie", roleCookie(null));
    if (linkCookie) headers.append("set-cookie", clearedLinkIntentCookie());
    if (outcome.result) {
      headers.append("set-cookie", sessionCookie(outcome.result.session.token));
    } else {
      const code = outcome.link.value ?? errorCode(outcome.error);
      if (outcome.error && !(outcome.error instanceof AppError))
        log.error("browser sign-in failed", { err: outcome.error });
      // A form posted with json=true (SIWE) reads where to go from the body.
      if (body?.json === "true") {
        headers.delete("location");
        return Response.json({ url: errorRedirect(code) }, { headers });
      }
      headers.set("location", errorRedirect(code));
      return new Response(null, { status: 302, headers });
    }
  }
  return new Response(collected.body ?? null, { status: collected.status, headers });
}
