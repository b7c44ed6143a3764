import { expect, test } from "@playwright/test";
import { signInThroughDemoId } from "./journey";

// The wallet journey on the embedded setup: a creator signs in, connects wagmi's mock
// connector for an anvil dev account the server never uses (account 9), links it by
// signing the SIWE message, takes 2.00 USDC from the faucet, sees the balance change, and
// follows the link to the local block explorer, which shows the transfer.

const TEST_WALLET = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";
const SHORT = "0xa0Ee…9720";

test("a creator connects a wallet, links it, drips 2.00 USDC and sees it in the explorer", async ({
  page,
}) => {
  // No hydration mismatches or uncaught errors (401s while signed out are expected).
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource"))
      consoleErrors.push(m.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(err.message));

  // The app offers its "test wallet" connector when this is set before it loads.
  await page.addInitScript((address) => {
    window.__MILESTONE_E2E_WALLET__ = address;
  }, TEST_WALLET);

  await signInThroughDemoId(
    page,
    "/sign-in?next=/wallet",
    `wallet-${Date.now()}@example.test`,
    "Creator",
  );
  await expect(page).toHaveURL(/\/wallet$/);

  const panel = page.getByTestId("wallet-panel");
  await expect(panel.getByTestId("wallet-unlinked")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Connect test wallet" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/wallet-disconnected.png", fullPage: true });
  await panel.getByRole("button", { name: "Connect test wallet" }).click();
  await expect(panel.getByTestId("wallet-connected")).toContainText(SHORT);
  await expect(panel.getByTestId("usdc-balance")).toHaveText("0.00 USDC");

  // Link: nonce → personal_sign through the mock connector (anvil signs) → POST.
  await panel.getByRole("button", { name: "Link this wallet" }).click();
  await expect(panel.getByTestId("wallet-linked")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Link this wallet" })).toHaveCount(0);
  const me = await (await page.request.get("/api/auth/me")).json();
  expect(me.user.walletAddress).toBe(TEST_WALLET);
  await expect(panel.getByTestId("reputation-badge")).toHaveText("No settled milestones yet");

  // Faucet: 2.00 USDC, the balance follows, and a second try says so.
  await panel.getByRole("button", { name: "Get 2.00 test USDC" }).click();
  await expect(panel.getByTestId("faucet-result")).toContainText("Sent 2.00 USDC");
  await expect(panel.getByTestId("usdc-balance")).toHaveText("2.00 USDC");
  await page.screenshot({ path: "e2e/screenshots/wallet.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/wallet-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The explorer link opens the local explorer's transaction page with the transfer.
  const link = panel.getByTestId("faucet-tx-link");
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/explorer\/tx\/0x[0-9a-f]{64}$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId("tx-status")).toHaveText("Success");
  const transfer = page.getByTestId("event-transfer");
  await expect(transfer).toHaveCount(1);
  await expect(transfer).toContainText("2.00 USDC");
  await expect(transfer).toContainText(SHORT);
  await page.screenshot({ path: "e2e/screenshots/explorer-tx.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "e2e/screenshots/explorer-tx-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // …and the recipient's address page lists it.
  await transfer.getByRole("link", { name: SHORT }).click();
  await expect(page).toHaveURL(new RegExp(`/explorer/address/${TEST_WALLET}$`));
  await expect(page.getByTestId("address-usdc")).toHaveText("2.00 USDC");
  await expect(page.getByTestId("address-transfers")).toContainText("+2.00 USDC");
  await page.screenshot({ path: "e2e/screenshots/explorer-address.png", fullPage: true });

  // Back on the wallet page, another drip for this account is refused politely.
  await page.goto("/wallet");
  await page
    .getByTestId("wallet-panel")
    .getByRole("button", { name: "Get 2.00 test USDC" })
    .click();
  await expect(page.getByTestId("faucet-result")).toContainText("Already funded");
  await expect(page.getByTestId("usdc-balance")).toHaveText("2.00 USDC");
  expect(consoleErrors).toEqual([]);
});
