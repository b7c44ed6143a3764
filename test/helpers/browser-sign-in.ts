import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { getDb } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import { type DevOidcProvider, startDevOidcProvider } from "@/lib/auth/dev-oidc-provider";
import { handleWebAuth } from "@/lib/auth/web-sign-in";
import { appUrl, resetEnvCache } from "@/lib/env";

// A browser's part of the OpenID sign-in, for tests: a cookie jar per origin, the app's
// /auth/* handler called directly, and the provider (the embedded oidc-provider, or a fake)
// over real HTTP, following its redirects and submitting its login and consent forms.

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the Set-Cookie lines of a response (Max-Age=0 deletes). */
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = "", ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || pair.slice(eq + 1) === "";
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  copy(): CookieJar {
    const jar = new CookieJar();
    for (const [k, v] of this.cookies) jar.cookies.set(k, v);
    return jar;
  }
}

/** Calls the app's /auth/* handler as a browser at APP_URL would. */
export async function appAuth(
  jar: CookieJar,
  pathAndQuery: string,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const url = new URL(pathAndQuery, appUrl());
  const headers = new Headers({ cookie: jar.header() });
  let body: string | undefined;
  if (init.form) {
    // As a browser's same-origin form post or fetch sends it.
    headers.set("origin", url.origin);
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form).toString();
  }
  const segments = url.pathname.replace(/^\/auth\//, "").split("/");
  const res = await handleWebAuth(
    new Request(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body }),
    segments,
  );
  jar.take(res.headers);
  return res;
}

/** Starts a sign-in: next-auth's CSRF token, then POST /auth/signin/oidc; the provider URL. */
export async function startOidcSignIn(
  jar: CookieJar,
  opts: { role?: string; callbackUrl?: string } = {},
): Promise<string> {
  const csrf = await appAuth(jar, "/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await appAuth(jar, "/auth/signin/oidc", {
    form: {
      csrfToken,
      callbackUrl: opts.callbackUrl ?? "/creator",
      role: opts.role ?? "creator",
      json: "true",
    },
  });
  const { url } = (await res.json()) as { url: string };
  return url;
}

/** One request to the provider with its own cookie jar; redirects are not followed. */
async function providerFetch(
  jar: CookieJar,
  url: string,
  form?: Record<string, string>,
): Promise<Response> {
  const res = await fetch(url, {
    method: form ? "POST" : "GET",
    redirect: "manual",
    headers: {
      cookie: jar.header(),
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  jar.take(res.headers);
  return res;
}

/**
 * Goes through the embedded provider's login and consent pages as a person would (the
 * forms' own actions), from its authorization URL to the redirect back to the app. Returns
 * the app's callback URL (with code and state).
 */
export async function loginAtProvider(
  providerJar: CookieJar,
  authorizationUrl: string,
  person: { email: string; embeddedWallet?: boolean },
): Promise<string> {
  let url = authorizationUrl;
  let form: Record<string, string> | undefined;
  const app = new URL(appUrl()).origin;
  for (let step = 0; step < 12; step++) {
    const res = await providerFetch(providerJar, url, form);
    form = undefined;
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url).toString();
      if (new URL(url).origin === app) return url;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html}`);
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${html}`);
    url = new URL(action, url).toString();
    form = action.endsWith("/login")
      ? { email: person.email, ...(person.embeddedWallet ? { embeddedWallet: "on" } : {}) }
      : {};
  }
  throw new Error("the provider never sent the browser back");
}

/**
 * Asks for an e-mail link in `jar`'s browser (`link: true`: to add the address to the
 * account signed in there); returns the link from the mail in the outbox.
 */
export async function askForLink(
  jar: CookieJar,
  email: string,
  role = "creator",
  opts: { link?: boolean } = {},
): Promise<URL> {
  const csrf = await appAuth(jar, "/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await appAuth(jar, "/auth/signin/email", {
    form: {
      csrfToken,
      email,
      role,
      callbackUrl: "/creator",
      json: "true",
      ...(opts.link ? { link: "1" } : {}),
    },
  });
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  expect(new URL(url, "http://app.test").pathname).toBe("/auth/verify-request");
  expect(new URL(url, "http://app.test").searchParams.get("error")).toBeNull();
  const [mail] = await (await getDb())
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, email.toLowerCase()))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  expect(mail?.status).toBe("sent");
  const link = /(http\S+\/auth\/callback\/email\?\S+)/.exec(mail?.body ?? "")?.[1];
  expect(link).toBeTruthy();
  return new URL(link as string);
}

/** Opens a link from a mail in `jar`'s browser. */
export const openLink = (jar: CookieJar, link: URL) =>
  appAuth(jar, `${link.pathname}${link.search}`);

/**
 * The embedded OpenID provider on a real port for this test file (DEV_IDP_URL points at it
 * while the file runs): call at the top level; the getter gives the running provider.
 */
export function runDevOidcProvider(): () => DevOidcProvider {
  let idp: DevOidcProvider | undefined;
  const saved = process.env.DEV_IDP_URL;
  beforeAll(async () => {
    idp = await startDevOidcProvider({ port: 0 });
    process.env.DEV_IDP_URL = idp.issuer;
    resetEnvCache();
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.DEV_IDP_URL;
    else process.env.DEV_IDP_URL = saved;
    resetEnvCache();
    await idp?.close();
  });
  return () => {
    if (!idp) throw new Error("the dev OpenID provider is not started yet (use it inside a test)");
    return idp;
  };
}
