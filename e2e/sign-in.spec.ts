import { expect, test } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DEMO_ID_BUTTON, screenshots, short, signInThroughDemoId } from "./journey";

// Browser sign-in the production way, against the embedded OpenID provider (oidc-provider,
// run by scripts/dev.ts beside the app): /sign-in → the provider's own login page → its
// consent page → the app's callback (code + PKCE, state, nonce) → the role's dashboard.

test("signs in through the OpenID provider's real login and consent pages", async ({
  page,
  baseURL,
}) => {
  const email = `oidc-${Date.now()}@example.test`;
  await page.goto("/sign-in");
  await page.getByLabel("Brand", { exact: true }).check();
  await screenshots(page, "sign-in-methods");

  await page.getByRole("button", { name: DEMO_ID_BUTTON }).click();
  // The provider's own origin: its login page, then its consent page.
  await page.waitForURL(/\/interaction\//);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  const provider = new URL(page.url());
  expect(provider.origin).not.toBe(new URL(baseURL ?? "http://x").origin);
  expect(provider.pathname).toMatch(/^\/interaction\//);
  await screenshots(page, "oidc-login");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("No browser wallet? Use an embedded wallet").check();
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(
    page.getByRole("heading", { name: "Allow Milestone to sign you in?" }),
  ).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await screenshots(page, "oidc-consent");
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(/\/brand$/);
  const menu = page.getByTestId("account-menu");
  await expect(menu.getByTestId("account-email")).toHaveText(email);
  await expect(menu.getByTestId("account-role")).toHaveText("Brand");
  const me = await (await page.request.get("/api/auth/me")).json();
  expect(me.user).toMatchObject({ email, profileType: "organization" });
  expect(me.user.walletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  // Only the app's session cookie: next-auth's own session is never handed out.
  const names = (await page.context().cookies()).map((c) => c.name);
  expect(names).toContain("milestone.session-token");
  expect(names.some((n) => n.includes("next-auth.session-token"))).toBe(false);
  await screenshots(page, "oidc-signed-in-brand");
});

test("cancelling at the provider comes back to /sign-in with a message", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: DEMO_ID_BUTTON }).click();
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel("E-mail", { exact: true }).fill(`cancel-${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/sign-in\?error=/);
  await expect(page.getByRole("alert").filter({ hasText: "did not complete" })).toBeVisible();
  expect((await page.request.get("/api/auth/me")).status()).toBe(401);
});

test("signs in with an e-mail link read from the outbox", async ({ page, browser }) => {
  const email = `link-${Date.now()}@example.test`;
  await page.goto("/sign-in");
  await page.getByLabel("Creator", { exact: true }).check();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  const sent = page.getByTestId("link-sent");
  await expect(sent).toContainText(email);
  await screenshots(page, "email-link-sent");

  await sent.getByRole("link", { name: "local outbox" }).click();
  const mail = page.getByTestId("outbox-mail").filter({ hasText: email }).first();
  await expect(mail).toContainText("Your Milestone sign-in link");
  await screenshots(page, "email-link-outbox");
  const link = /(http\S+\/auth\/callback\/email\?\S+)/.exec((await mail.textContent()) ?? "")?.[1];
  expect(link).toBeTruthy();

  // Opened in another browser, it does not sign in (and stays usable where it was asked for).
  const other = await (await browser.newContext()).newPage();
  await other.goto(link as string);
  await expect(other).toHaveURL(/\/sign-in\?error=link_other_browser/);
  await expect(other.getByRole("alert").filter({ hasText: "another browser" })).toBeVisible();
  await other.context().close();

  await page.goto(link as string);
  await expect(page).toHaveURL(/\/creator$/);
  await expect(page.getByTestId("account-menu").getByTestId("account-email")).toHaveText(email);
  await screenshots(page, "email-link-signed-in-creator");

  // Used once: opening it again signs nobody in.
  await page.context().clearCookies();
  await page.goto(link as string);
  await expect(page).toHaveURL(/\/sign-in\?error=/);
});

test("one account per e-mail: the demo ID is refused until the account adds it from its profile", async ({
  page,
  browser,
}) => {
  const email = `linked-${Date.now()}@example.test`;
  // The account is made by an e-mail link.
  await page.goto("/sign-in");
  await page.getByLabel("Creator", { exact: true }).check();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await page.getByTestId("link-sent").getByRole("link", { name: "local outbox" }).click();
  const mail = page.getByTestId("outbox-mail").filter({ hasText: email }).first();
  const link = /(http\S+\/auth\/callback\/email\?\S+)/.exec((await mail.textContent()) ?? "")?.[1];
  await page.goto(link as string);
  await expect(page).toHaveURL(/\/creator$/);

  // Elsewhere, the demo ID with the same e-mail does not get a second account.
  const other = await (await browser.newContext()).newPage();
  await signInThroughDemoId(other, "/sign-in", email, "Creator");
  await expect(other).toHaveURL(/\/sign-in\?error=account_exists/);
  await expect(other.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();
  await screenshots(other, "sign-in-account-exists");

  // Signed in, the account adds it from its profile, through the provider's real pages.
  await page.goto("/profile");
  const methods = page.getByTestId("sign-in-methods");
  await expect(methods.getByRole("list", { name: "Ways to sign in" })).toContainText("E-mail link");
  await methods.getByRole("button", { name: "Add Milestone demo ID" }).click();
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/profile\?linked=oidc$/);
  await expect(methods.getByRole("status")).toContainText("Added");
  await expect(methods.getByRole("list", { name: "Ways to sign in" })).toContainText(
    "Milestone demo ID",
  );
  await expect(methods.getByRole("button", { name: "Add Milestone demo ID" })).toHaveCount(0);
  await screenshots(page, "profile-sign-in-methods");

  // Now the demo ID opens that same account.
  await signInThroughDemoId(other, "/sign-in", email, "Creator");
  await expect(other).toHaveURL(/\/creator$/);
  const mine = await (await page.request.get("/api/auth/me")).json();
  const theirs = await (await other.request.get("/api/auth/me")).json();
  expect(theirs.user.id).toBe(mine.user.id);
  await other.context().close();
});

test("signs in with Ethereum (SIWE) from a browser wallet", async ({ page }) => {
  // A browser wallet of its own (an EIP-1193 provider at window.ethereum, what wagmi's
  // injected connector talks to), holding a fresh key: the signature is made here, in Node,
  // as a real wallet would make it. Anvil's dev accounts are all taken by other journeys.
  const wallet = privateKeyToAccount(generatePrivateKey());
  await page.exposeFunction("__e2eSign", (raw: string) =>
    wallet.signMessage({ message: { raw: raw as `0x${string}` } }),
  );
  await page.addInitScript((address) => {
    const w = window as unknown as {
      ethereum: unknown;
      __e2eSign(raw: string): Promise<string>;
    };
    w.ethereum = {
      isMetaMask: false,
      on() {},
      removeListener() {},
      async request({ method, params }: { method: string; params?: unknown[] }) {
        switch (method) {
          case "eth_requestAccounts":
          case "eth_accounts":
            return [address];
          case "eth_chainId":
            return "0x7a69";
          case "wallet_requestPermissions":
          case "wallet_getPermissions":
            return [
              {
                parentCapability: "eth_accounts",
                caveats: [{ type: "restrictReturnedAccounts", value: [address] }],
              },
            ];
          case "personal_sign":
            return w.__e2eSign(String(params?.[0]));
          default:
            throw Object.assign(new Error(`unsupported: ${method}`), { code: 4200 });
        }
      },
    };
  }, wallet.address);

  await page.goto("/sign-in");
  await page.getByLabel("Creator", { exact: true }).check();
  const siwe = page.getByTestId("siwe-sign-in");
  await siwe.getByRole("button", { name: "Connect browser wallet" }).click();
  await expect(siwe.getByTestId("wallet-connected")).toBeVisible();
  await screenshots(page, "siwe-connected");
  await siwe.getByRole("button", { name: "Sign in with Ethereum" }).click();

  await expect(page).toHaveURL(/\/creator$/);
  const me = await (await page.request.get("/api/auth/me")).json();
  expect(me.user).toMatchObject({ profileType: "creator", walletAddress: wallet.address });
  // A wallet-only account: the header names the wallet, not its placeholder e-mail.
  await expect(page.getByTestId("account-menu").getByTestId("account-email")).toHaveText(
    short(wallet.address),
  );
  await screenshots(page, "siwe-signed-in-creator");
});
