import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { GET as meGET } from "@/app/api/auth/me/route";
import { SESSION_COOKIE_NAME, setCookieValue } from "../helpers/auth";
import { appAuth, CookieJar } from "../helpers/browser-sign-in";
import { call } from "../helpers/http";

// Sign-In with Ethereum on /sign-in, through next-auth's credentials callback: the message
// is checked as the wallet-link code checks it (this site, the address, not expired, the
// signature), with a nonce issued to the asking browser and used once.

async function messageFor(jar: CookieJar, address: string): Promise<string> {
  const res = await appAuth(jar, `/auth/siwe/nonce?address=${address}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { message: string }).message;
}

async function submit(jar: CookieJar, message: string, signature: string, role = "creator") {
  const csrf = await appAuth(jar, "/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await appAuth(jar, "/auth/callback/siwe", {
    form: { csrfToken, message, signature, role, callbackUrl: "/creator", json: "true" },
  });
  const { url } = (await res.json()) as { url: string };
  return { res, url: new URL(url, "http://x") };
}

function expectRefused(r: { res: Response; url: URL }, code?: string) {
  expect(r.url.pathname).toBe("/sign-in");
  if (code) expect(r.url.searchParams.get("error")).toBe(code);
  else expect(r.url.searchParams.get("error")).toBeTruthy();
  expect(setCookieValue(r.res.headers)).toBeUndefined();
}

describe("Sign-In with Ethereum", () => {
  it("signs in as a new creator whose wallet is linked", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const jar = new CookieJar();
    const message = await messageFor(jar, wallet.address);
    const { res, url } = await submit(jar, message, await wallet.signMessage({ message }));
    expect(url.pathname).toBe("/creator");
    const token = setCookieValue(res.headers);
    const me = await call(meGET, { cookie: `${SESSION_COOKIE_NAME}=${token}` });
    expect(me.body.user).toMatchObject({ profileType: "creator", walletAddress: wallet.address });
    // The same wallet again is the same account.
    const again = await messageFor(jar, wallet.address);
    const second = await submit(jar, again, await wallet.signMessage({ message: again }));
    const me2 = await call(meGET, {
      cookie: `${SESSION_COOKIE_NAME}=${setCookieValue(second.res.headers)}`,
    });
    expect(me2.body.user.id).toBe(me.body.user.id);
  });

  it("refuses a replayed message", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const jar = new CookieJar();
    const message = await messageFor(jar, wallet.address);
    const signature = await wallet.signMessage({ message });
    expect(setCookieValue((await submit(jar, message, signature)).res.headers)).toBeTruthy();
    expectRefused(await submit(jar, message, signature), "nonce_used");
  });

  it("refuses a message for another domain, even with a live nonce", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const jar = new CookieJar();
    const fields = parseSiweMessage(await messageFor(jar, wallet.address));
    const message = createSiweMessage({
      ...(fields as Parameters<typeof createSiweMessage>[0]),
      domain: "evil.example",
      uri: "https://evil.example",
    });
    expectRefused(
      await submit(jar, message, await wallet.signMessage({ message })),
      "message_domain_mismatch",
    );
  });

  it("refuses a signature by another key, and a nonce asked for in another browser", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const jar = new CookieJar();
    const message = await messageFor(jar, wallet.address);
    const other = privateKeyToAccount(generatePrivateKey());
    expectRefused(
      await submit(jar, message, await other.signMessage({ message })),
      "invalid_signature",
    );
    const elsewhere = new CookieJar();
    await messageFor(elsewhere, wallet.address);
    expectRefused(
      await submit(elsewhere, message, await wallet.signMessage({ message })),
      "nonce_used",
    );
  });
});
