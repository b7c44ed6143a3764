import { expect, type Page, test } from "@playwright/test";
import { type Address, createPublicClient, erc20Abi, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  api,
  confirmSend,
  DESKTOP,
  embeddedWalletItem,
  reviewSend,
  screenshots,
  signInWithEmbeddedWallet,
} from "./journey";

// A creator without a browser wallet gets money out: signed in with the embedded wallet,
// holding test USDC (the local chain's test-funds helper, as a payout would leave it), sends
// part of it to another address (an exchange deposit address, say) after a confirmation that
// shows the amount, the destination and the network. Balances are checked on-chain.

/** The chain the page talks to: its public RPC endpoint, as the wallet page carries it. */
async function chainOf(page: Page): Promise<PublicClient> {
  const html = await (await page.request.get("/wallet")).text();
  const rpcUrl = /rpcUrl\\*"\s*:\s*\\*"(https?:\/\/[^"\\]+)/.exec(html)?.[1];
  expect(rpcUrl, "the page's public chain info names its RPC").toBeTruthy();
  return createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
}

test("a creator sends part of the embedded wallet's USDC to another address", async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource"))
      consoleErrors.push(m.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(err.message));
  await page.setViewportSize(DESKTOP);

  await signInWithEmbeddedWallet(page, `cashout-${Date.now()}@example.test`, "Creator", "/wallet");
  await expect(page.getByTestId("money-wallets")).toBeVisible();

  const me = await api<{ user: { walletAddress: Address } }>(page, "GET", "/api/auth/me");
  const embedded = me.user.walletAddress;
  expect(embedded).toMatch(/^0x[0-9a-fA-F]{40}$/);
  // 1,000 test USDC into the embedded wallet (what a payout would leave there).
  await api(page, "POST", "/api/faucet/test-usdc", { address: embedded });
  const overview = await api<{ token: { address: Address } }>(page, "GET", "/api/wallet");
  const chain = await chainOf(page);
  const usdcOf = (who: Address) =>
    chain.readContract({
      address: overview.token.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [who],
    });
  expect(await usdcOf(embedded)).toBe(1_000_000_000n);

  await page.reload();
  const item = embeddedWalletItem(page);
  await expect(item.getByTestId("money-wallet-balance")).toHaveText("1,000.00 USDC");

  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await item.getByRole("button", { name: "Send to an address" }).click();
  // Nothing moves on a typo: the form says what is wrong.
  await item.getByLabel("Recipient address").fill("0x1234");
  await item.getByLabel("Amount (USDC)").fill("5000");
  await item.getByRole("button", { name: "Review" }).click();
  await expect(item.getByText("Enter a 0x address")).toBeVisible();
  await expect(item.getByText("This wallet holds 1,000.00 USDC.")).toBeVisible();

  await reviewSend(page, recipient, "250.5", "250.50 USDC");
  expect(await usdcOf(recipient)).toBe(0n); // nothing moved before the confirmation
  await screenshots(page, "cashout-confirm");

  await confirmSend(page, recipient, "250.50 USDC", "749.50 USDC");

  // On-chain: exactly the amount arrived, and left the embedded wallet.
  expect(await usdcOf(recipient)).toBe(250_500_000n);
  expect(await usdcOf(embedded)).toBe(749_500_000n);
  await screenshots(page, "cashout-sent");
  expect(consoleErrors).toEqual([]);
});
