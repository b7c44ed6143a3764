import { expect, test } from "@playwright/test";

test("home page renders and the stack is healthy", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("milestone");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/home.png", fullPage: true });

  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  const body = await health.json();
  expect(body).toMatchObject({ ok: true, db: "ok", chain: { chainId: 31337 } });
  expect(body.chain.blockNumber).toBeGreaterThan(0);
});
