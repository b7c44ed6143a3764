import { sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { GET as identitiesGET } from "@/app/api/auth/identities/route";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { getDb } from "@/db/client";
import { revokeSessions } from "@/db/queries/users";
import { users } from "@/db/schema";
import { accountForIdentity } from "@/lib/auth/accounts";
import { signInByEmail } from "@/lib/auth/email-link";
import { createSessionToken } from "@/lib/auth/session";
import { SIWE_ISSUER, walletOnlyEmail } from "@/lib/auth/siwe-sign-in";
import { LINK_INTENT_COOKIE } from "@/lib/auth/web-sign-in";
import { devIdToken, SESSION_COOKIE_NAME, setCookieValue, uniqueEmail } from "../helpers/auth";
import {
  appAuth,
  askForLink,
  CookieJar,
  loginAtProvider,
  openLink,
  runDevOidcProvider,
  startOidcSignIn,
} from "../helpers/browser-sign-in";
import { call } from "../helpers/http";

// One account per person across the ways in (lib/auth/accounts.ts): a new way in whose
// e-mail an account holds is refused rather than given a second account, and a further way
// is added only by the signed-in account, through that method's real flow with link=1 (the
// embedded OpenID provider on a real port, e-mail links from the outbox).

runDevOidcProvider();

/** A browser signed in by an e-mail link to `email` (a new account, or the one holding it). */
async function signedInByLink(email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await openLink(jar, await askForLink(jar, email));
  expect(res.status).toBe(302);
  expect(jar.get(SESSION_COOKIE_NAME)).toBeTruthy();
  return jar;
}

const cookieOf = (jar: CookieJar) => ({
  cookie: `${SESSION_COOKIE_NAME}=${jar.get(SESSION_COOKIE_NAME)}`,
});
const me = async (jar: CookieJar) => (await call(meGET, cookieOf(jar))).body.user;
const methodsOf = async (jar: CookieJar) => (await call(identitiesGET, cookieOf(jar))).body;

/** Signs in through the embedded provider as `email` in a fresh browser; the callback's answer. */
async function oidcSignIn(email: string): Promise<Response> {
  const jar = new CookieJar();
  const authorizationUrl = await startOidcSignIn(jar);
  const back = new URL(await loginAtProvider(new CookieJar(), authorizationUrl, { email }));
  return appAuth(jar, `${back.pathname}${back.search}`);
}

/** From the profile: starts adding the OpenID provider to the account signed in in `jar`. */
async function startLinkingOidc(jar: CookieJar): Promise<string> {
  const { csrfToken } = (await (await appAuth(jar, "/auth/csrf")).json()) as {
    csrfToken: string;
  };
  const res = await appAuth(jar, "/auth/signin/oidc", {
    form: { csrfToken, link: "1", callbackUrl: "/profile", json: "true" },
  });
  return ((await res.json()) as { url: string }).url;
}

/** Adds the provider's `email` identity to the account signed in in `jar`; the callback's answer. */
async function linkOidc(jar: CookieJar, email: string): Promise<Response> {
  const authorizationUrl = await startLinkingOidc(jar);
  expect(jar.get(LINK_INTENT_COOKIE)).toBeTruthy();
  const back = new URL(await loginAtProvider(new CookieJar(), authorizationUrl, { email }));
  const res = await appAuth(jar, `${back.pathname}${back.search}`);
  expect(jar.get(LINK_INTENT_COOKIE)).toBeUndefined();
  return res;
}

async function accountsWithEmail(email: string): Promise<number> {
  const rows = await (await getDb())
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return rows.length;
}

describe("one account per e-mail across the ways in", () => {
  it("refuses an OpenID sign-in whose e-mail an e-mail-link account holds, making no second account", async () => {
    const email = uniqueEmail("held");
    const jar = await signedInByLink(email);
    const res = await oidcSignIn(email);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/sign-in?error=account_exists");
    expect(setCookieValue(res.headers)).toBeUndefined();
    // The API says the same, in the error envelope.
    const api = await call(sessionPOST, { body: { idToken: await devIdToken(email) } });
    expect(api.status).toBe(409);
    expect(api.body.error.code).toBe("account_exists");
    expect(api.body.error.message).toContain("add this way of signing in from your profile");
    expect(await accountsWithEmail(email)).toBe(1);
    expect((await me(jar)).email).toBe(email);
  });

  it("an e-mail link still opens the account an OpenID sign-in made (the link proves the e-mail)", async () => {
    const email = uniqueEmail("oidc-first");
    const res = await oidcSignIn(email);
    const first = await call(meGET, {
      cookie: `${SESSION_COOKIE_NAME}=${setCookieValue(res.headers)}`,
    });
    const jar = await signedInByLink(email.toUpperCase());
    expect((await me(jar)).id).toBe(first.body.user.id);
    expect(await accountsWithEmail(email)).toBe(1);
  });

  it("first sign-ins racing with one e-mail, by link and by ID token, make one account", async () => {
    const db = await getDb();
    const email = uniqueEmail("race");
    const idToken = await devIdToken(email);
    const results = await Promise.allSettled([
      ...[1, 2, 3].map(() => call(sessionPOST, { body: { idToken } })),
      ...[1, 2, 3].map(() => signInByEmail(db, { email })),
    ]);
    expect(await accountsWithEmail(email)).toBe(1);
    const ids = new Set<string>();
    for (const r of results) {
      expect(r.status).toBe("fulfilled");
      if (r.status !== "fulfilled") continue;
      const v = r.value as {
        status?: number;
        body?: { user?: { id: string } };
        user?: { id: string };
      };
      if ("session" in r.value) ids.add((r.value as { user: { id: string } }).user.id);
      else if (v.status === 200) ids.add(v.body?.user?.id as string);
      else {
        // The link made the account first: the ID token is refused, not given a second one.
        expect(v.status).toBe(409);
      }
    }
    expect(ids.size).toBe(1);
  });
});

describe("adding a way to sign in, from the signed-in account", () => {
  it("links the OpenID identity, which then signs in to that account, by browser and by API", async () => {
    const email = uniqueEmail("link-oidc");
    const jar = await signedInByLink(email);
    const account = await me(jar);
    expect((await methodsOf(jar)).canLink.oidc).toBe("Milestone demo ID");

    const res = await linkOidc(jar, email);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/profile?linked=oidc");
    // Still the same session: linking does not sign anyone else in.
    expect((await me(jar)).id).toBe(account.id);

    const listed = await methodsOf(jar);
    expect(listed.methods.map((m: { kind: string; first: boolean }) => [m.kind, m.first])).toEqual([
      ["email", true],
      ["oidc", false],
    ]);
    expect(listed.canLink).toEqual({ oidc: null, email: false });

    const viaBrowser = await oidcSignIn(email);
    const signedIn = await call(meGET, {
      cookie: `${SESSION_COOKIE_NAME}=${setCookieValue(viaBrowser.headers)}`,
    });
    expect(signedIn.body.user.id).toBe(account.id);
    const viaApi = await call(sessionPOST, { body: { idToken: await devIdToken(email) } });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.user.id).toBe(account.id);
    expect(await accountsWithEmail(email)).toBe(1);

    // Linking it again changes nothing.
    const again = await linkOidc(jar, email);
    expect(again.headers.get("location")).toBe("/profile?linked=oidc");
    expect((await methodsOf(jar)).methods).toHaveLength(2);
  });

  it("refuses an identity that already opens another account: no takeover by linking", async () => {
    const other = uniqueEmail("owner");
    const owner = await call(sessionPOST, { body: { idToken: await devIdToken(other) } });
    expect(owner.status).toBe(200);
    const jar = await signedInByLink(uniqueEmail("taker"));
    const res = await linkOidc(jar, other);
    expect(res.headers.get("location")).toBe("/profile?link_error=identity_in_use");
    expect((await methodsOf(jar)).methods).toHaveLength(1);
    const stillOwner = await call(sessionPOST, { body: { idToken: await devIdToken(other) } });
    expect(stillOwner.body.user.id).toBe(owner.body.user.id);
  });

  it("refuses an identity whose e-mail belongs to another account", async () => {
    const held = uniqueEmail("held-by-c");
    await signedInByLink(held);
    const jar = await signedInByLink(uniqueEmail("a"));
    const res = await linkOidc(jar, held);
    expect(res.headers.get("location")).toBe("/profile?link_error=account_exists");
    expect((await methodsOf(jar)).methods).toHaveLength(1);
    expect(await accountsWithEmail(held)).toBe(1);
  });

  it("a wallet-only account adds an e-mail by a link opened while signed in, which then signs in to it", async () => {
    const db = await getDb();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const user = await accountForIdentity(db, {
      issuer: SIWE_ISSUER,
      subject: wallet.address.toLowerCase(),
      email: walletOnlyEmail(wallet.address),
      profileType: "creator",
      emailHeld: "refuse",
    });
    const jar = new CookieJar();
    jar.take(
      new Headers({
        "set-cookie": `${SESSION_COOKIE_NAME}=${(await createSessionToken(user.id, user.sessionVersion)).token}`,
      }),
    );
    expect((await methodsOf(jar)).canLink.email).toBe(true);

    const email = uniqueEmail("wallet-adds");
    const res = await openLink(jar, await askForLink(jar, email, "creator", { link: true }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/profile?linked=email");
    expect(await me(jar)).toMatchObject({ id: user.id, email });
    expect((await methodsOf(jar)).canLink.email).toBe(false);

    const elsewhere = await signedInByLink(email);
    expect((await me(elsewhere)).id).toBe(user.id);
    expect(await accountsWithEmail(email)).toBe(1);
  });

  it("refuses to start linking without a signed-in session", async () => {
    const jar = new CookieJar();
    const url = await startLinkingOidc(jar);
    expect(url).toBe("/profile?link_error=link_needs_session");
    expect(jar.get(LINK_INTENT_COOKIE)).toBeUndefined();
  });

  it("a link finished after signing out everywhere neither links nor signs in", async () => {
    const jar = await signedInByLink(uniqueEmail("signed-out"));
    const authorizationUrl = await startLinkingOidc(jar);
    const userId = (await me(jar)).id;
    // Signing out everywhere (DELETE /api/auth/session's step) in the middle of the link.
    await revokeSessions(await getDb(), userId);
    const fresh = uniqueEmail("never-linked");
    const back = new URL(
      await loginAtProvider(new CookieJar(), authorizationUrl, { email: fresh }),
    );
    const res = await appAuth(jar, `${back.pathname}${back.search}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/profile?link_error=link_needs_session");
    expect(setCookieValue(res.headers)).toBeUndefined();
    expect(await accountsWithEmail(fresh)).toBe(0);
  });
});
