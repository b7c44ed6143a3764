import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { POST as sessionPOST } from "@/app/api/auth/session/route";
import { getDb } from "@/db/client";
import { emailOutbox, signInLinks } from "@/db/schema";
import { BROWSER_NONCE_COOKIE } from "@/lib/auth/email-link";
import { devIdToken, SESSION_COOKIE_NAME, setCookieValue, uniqueEmail } from "../helpers/auth";
import { askForLink, CookieJar, openLink as open } from "../helpers/browser-sign-in";
import { call } from "../helpers/http";

// E-mail sign-in links through next-auth's e-mail flow and the app's mailer (the outbox,
// the embedded default, whose row is the mail): single-use, expiring, bound to the browser
// that asked, and one account per e-mail whatever the method.

async function meWith(res: Response) {
  const token = setCookieValue(res.headers);
  expect(token).toBeTruthy();
  return (await call(meGET, { cookie: `${SESSION_COOKIE_NAME}=${token}` })).body.user;
}

function expectRefused(res: Response, code: string) {
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe(`/sign-in?error=${code}`);
  expect(setCookieValue(res.headers)).toBeUndefined();
}

describe("e-mail sign-in links", () => {
  it("a link from the outbox signs in, in the browser that asked, as the chosen role", async () => {
    const email = uniqueEmail("link");
    const jar = new CookieJar();
    const link = await askForLink(jar, email, "organization");
    expect(jar.get(BROWSER_NONCE_COOKIE)).toBeTruthy();
    // Only the token's hash is stored.
    const rows = await (await getDb())
      .select()
      .from(signInLinks)
      .where(eq(signInLinks.email, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toBe(link.searchParams.get("token"));
    const res = await open(jar, link);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/\/creator$/);
    expect(await meWith(res)).toMatchObject({ email, profileType: "organization" });
  });

  it("refuses a link used twice", async () => {
    const jar = new CookieJar();
    const link = await askForLink(jar, uniqueEmail("twice"));
    expect((await open(jar, link)).status).toBe(302);
    expectRefused(await open(jar, link), "link_used");
  });

  it("refuses a link opened in another browser, which leaves it for the right one", async () => {
    const jar = new CookieJar();
    const email = uniqueEmail("elsewhere");
    const link = await askForLink(jar, email);
    expectRefused(await open(new CookieJar(), link), "link_other_browser");
    const stranger = new CookieJar();
    await askForLink(stranger, uniqueEmail("stranger")); // a browser with a nonce of its own
    expectRefused(await open(stranger, link), "link_other_browser");
    expect(await meWith(await open(jar, link))).toMatchObject({ email });
  });

  it("refuses an expired link", async () => {
    const jar = new CookieJar();
    const email = uniqueEmail("expired");
    const link = await askForLink(jar, email);
    await (await getDb())
      .update(signInLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInLinks.email, email));
    expectRefused(await open(jar, link), "link_expired");
  });

  it("refuses a link whose token or address was changed", async () => {
    const jar = new CookieJar();
    const link = await askForLink(jar, uniqueEmail("tampered"));
    const token = new URL(link);
    token.searchParams.set("token", "0".repeat(64));
    expectRefused(await open(jar, token), "link_used");
    const address = new URL(link);
    address.searchParams.set("email", uniqueEmail("victim"));
    expectRefused(await open(jar, address), "link_other_browser");
  });

  it("is one account per e-mail: a link signs in to the account an ID token made", async () => {
    const email = uniqueEmail("both");
    const api = await call(sessionPOST, { body: { idToken: await devIdToken(email) } });
    const jar = new CookieJar();
    const user = await meWith(await open(jar, await askForLink(jar, email.toUpperCase())));
    expect(user.id).toBe(api.body.user.id);
  });
});
