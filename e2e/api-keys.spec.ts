import { expect, test } from "@playwright/test";
import { axeProblems, signInThroughDemoId } from "./journey";

// API keys in the browser: a signed-in user creates a key on Settings → API keys, sees it once,
// the key works as a bearer, the list shows it (never the secret again), and revoking it
// stops it at once. Also: a creator without a browser wallet signs in with the demo
// provider's embedded wallet and has a payout wallet straight away.

test("create an API key, use it, see it listed, revoke it", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInThroughDemoId(
    page,
    "/sign-in?next=/settings/keys",
    `keys-${Date.now()}@example.test`,
    "Brand",
  );
  await expect(page).toHaveURL(/\/settings\/keys$/);

  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByTestId("api-keys-empty")).toBeVisible();

  await page.getByLabel("Name").fill("reporting script");
  await page.getByRole("checkbox", { name: /Write/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const once = page.getByTestId("api-key-once");
  await expect(once).toBeVisible();
  const key = (await page.getByTestId("api-key-secret").textContent())?.trim() ?? "";
  expect(key).toMatch(/^mk_[0-9A-Za-z]{40}$/);
  await once.getByRole("button", { name: "Copy key" }).click();
  await expect(once.getByRole("button", { name: "Copied" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/api-key-created.png", fullPage: true });

  // The key works as a bearer (`request` has no browser cookies).
  const me = await request.get("/api/auth/me", { headers: { authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  expect(me.headers()["ratelimit-limit"]).toBeTruthy();

  await once.getByRole("button", { name: "I have stored it" }).click();
  await expect(once).toHaveCount(0);
  const row = page.getByTestId("api-key-row").filter({ hasText: "reporting script" });
  await expect(row).toContainText(key.slice(0, 11));
  await expect(row).toContainText("read, write");
  await expect(page.getByText(key)).toHaveCount(0);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "e2e/screenshots/api-keys-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  await row.getByRole("button", { name: "Revoke…" }).click();
  await row.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(row).toContainText("Revoked");
  const after = await request.get("/api/auth/me", { headers: { authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
});

test("a creator without a browser wallet signs in with the embedded wallet", async ({ page }) => {
  await signInThroughDemoId(page, "/sign-in", `embedded-${Date.now()}@example.test`, "Creator", {
    embeddedWallet: true,
  });
  await expect(page).toHaveURL(/\/creator$/);
  const me = await (await page.request.get("/api/auth/me")).json();
  expect(me.user.walletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
});

test("try an API key on /docs", async ({ page, request }) => {
  // A key made through the API with a fresh session (what the settings page does).
  const idToken = (
    await (
      await request.post("/api/dev/id-token", {
        data: { email: `docs-${Date.now()}@example.test` },
      })
    ).json()
  ).idToken;
  const session = await (await request.post("/api/auth/session", { data: { idToken } })).json();
  const created = await request.post("/api/keys", {
    headers: { authorization: `Bearer ${session.token}` },
    data: { name: "docs", scopes: ["read"] },
  });
  expect(created.status()).toBe(201);
  const { key } = await created.json();

  await page.goto("/docs");
  const panel = page.getByTestId("try-it");
  await panel.getByLabel("API key").fill(key);
  await panel.getByLabel("Endpoint").selectOption({ label: "GET /api/auth/me" });
  await panel.getByRole("button", { name: "Send GET" }).click();
  const result = panel.getByTestId("try-it-result");
  await expect(result).toContainText("200");
  await expect(result).toContainText("ratelimit-remaining");
  await expect(result).toContainText(session.user.email);
});

test("/docs: examples to copy, and Try it pre-filled with a request that works", async ({
  page,
  request,
}) => {
  const idToken = (
    await (
      await request.post("/api/dev/id-token", {
        data: { email: `docs-brand-${Date.now()}@example.test` },
      })
    ).json()
  ).idToken;
  const session = await (
    await request.post("/api/auth/session", { data: { idToken, profileType: "organization" } })
  ).json();
  const created = await request.post("/api/keys", {
    headers: { authorization: `Bearer ${session.token}` },
    data: { name: "docs", scopes: ["read", "write"] },
  });
  const { key } = await created.json();

  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Quickstart" })).toBeVisible();
  await expect(page.getByText("1. Create an API key")).toBeVisible();

  // One endpoint's examples: curl, the typed client, an example answer.
  const card = page
    .locator("article")
    .filter({ has: page.getByText("/api/deals", { exact: true }) })
    .filter({ has: page.getByText("POST", { exact: true }) });
  await card.getByText("Examples: curl, TypeScript, response").click();
  await expect(card.getByText(/curl -X POST '.*\/api\/deals'/)).toBeVisible();
  await expect(card.getByText('api.call("POST", "/api/deals"')).toBeVisible();
  await expect(card.getByText('"deal": {')).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  await card.screenshot({ path: "e2e/screenshots/docs-examples.png" });
  await page.setViewportSize({ width: 375, height: 812 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(375);
  expect(await axeProblems(page)).toEqual([]);
  await card.screenshot({ path: "e2e/screenshots/docs-examples-375.png" });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Try it: the pre-filled body creates a deal as it stands.
  const panel = page.getByTestId("try-it");
  await panel.getByLabel("API key").fill(key);
  await panel.getByLabel("Endpoint").selectOption({ label: "POST /api/deals" });
  await expect(panel.getByLabel("JSON body")).toHaveValue(/"milestones"/);
  await panel.getByRole("button", { name: "Send POST" }).click();
  const result = panel.getByTestId("try-it-result");
  await expect(result).toContainText("201");
  await expect(result).toContainText('"status": "unfunded"');
});
