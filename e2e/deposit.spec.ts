import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, type Page, test } from "@playwright/test";
import { type Address, erc20Abi, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { dealKey } from "@/lib/escrow/onchain";
import { milestoneEscrowAbi } from "../contracts/artifacts/MilestoneEscrow";
import {
  api,
  confirmSend,
  devAccount,
  devAddress,
  embeddedWalletItem,
  localChain,
  reviewSend,
  screenshots,
  short,
  signInWithEmbeddedWallet,
} from "./journey";
import { publishOnSandbox } from "./sandbox";

// Funding without a browser wallet, checked on-chain: a brand signed in with the embedded
// wallet (it can receive, not sign) opens a starter deal and sees "Pay by transfer": the
// amount, network, token and the deal's own deposit address, each with a Copy button, a QR
// code of the payment URI, and where refunds go. It names an exchange deposit address as the
// refund address. A plain account (an anvil dev key signing in this test: the stand-in for
// an exchange withdrawal) sends part of the amount; once the watcher has looked (reconcile,
// which the cron route runs in production: `npm run reconcile` here, since the e2e server has
// no timer), the page shows "received X of Y" by itself, polling. A top-up that overshoots
// completes it: the deposit is swept into the escrow, the excess goes back to the refund
// address, and the page shows the deal open.
// Then the money goes out, again without a browser wallet: a creator signed in with the
// embedded wallet takes the deal, verifies the sandbox handle, publishes and submits the
// post; the brand settles it on the page (90 % of 100 USDC: the rest goes to the refund
// address, the exchange); the creator sees the payout, opens /wallet and sends part of it to
// another address after the confirmation. Every balance is read on-chain.

const PAYER = devAccount(16); // the "exchange" the brand withdraws from
const EXCHANGE_DEPOSIT = devAddress(17); // the brand's refund address (an exchange account)
const USDC = 1_000_000n;

/** `npm run reconcile` beside the running app (it asks the app through the cron route). */
async function runReconcile() {
  await promisify(execFile)("npx", ["tsx", "scripts/reconcile.ts"], {
    env: { ...process.env, DATA_DIR: ".data/e2e", LOG_LEVEL: "warn" },
    timeout: 90_000,
  });
}

type Deposit = {
  address: Address;
  amountUnits: string;
  paymentUri: string;
  refundAddress: Address;
  status: string;
};
type Funding = { escrow: Address; usdc: Address; deposit: Deposit | null };

async function funding(page: Page, dealId: string): Promise<Funding> {
  return (await api<{ funding: Funding }>(page, "GET", `/api/deals/${dealId}/funding`)).funding;
}

test("no browser wallet end to end: funded by transfer (under-paid, topped up), settled, the payout sent on", async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const stamp = Date.now();
  const brandEmail = `deposit-brand-${stamp}@example.test`;
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const brand = await context.newPage();
  await signInWithEmbeddedWallet(brand, brandEmail, "Brand");
  await brand.getByRole("button", { name: "Add the three starter deals" }).click();
  await expect(brand.locator("#main").getByTestId("deal-card")).toHaveCount(3);
  await brand
    .locator("#main")
    .getByTestId("deal-card")
    .filter({ hasText: "TikTok Clip" })
    .getByRole("link", { name: /TikTok Clip/ })
    .click();
  await expect(brand).toHaveURL(/\/deals\/[0-9a-f-]{36}$/);
  const dealId = brand.url().split("/deals/")[1] ?? "";

  // "Pay by transfer" is what a brand sees first; the wallet paths wait under the other tab.
  const panel = brand.getByTestId("funding-panel");
  await expect(panel.getByRole("tab", { name: "Pay by transfer" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(panel.getByRole("tab", { name: "Pay from a connected wallet" })).toBeVisible();
  const status = panel.getByTestId("deposit-status");
  await expect(status).toHaveAttribute("data-status", "awaiting");
  await expect(status).toContainText("Waiting for your payment");

  // The instructions are the API's: the deal's address, for the brand's own (embedded) wallet.
  const first = (await funding(brand, dealId)).deposit;
  expect(first).not.toBeNull();
  const me = await api<{ user: { walletAddress: string } }>(brand, "GET", "/api/auth/me");
  expect(first?.refundAddress).toBe(getAddress(me.user.walletAddress));
  await expect(panel.getByTestId("refund-address-value")).toHaveText(first?.refundAddress ?? "");
  await expect(panel.getByTestId("deposit-amount")).toContainText("100.00 USDC");
  await expect(panel.getByTestId("deposit-amount").locator("[data-value]")).toHaveAttribute(
    "data-value",
    "100",
  );
  await expect(panel.getByTestId("deposit-network")).toContainText("Local chain");
  await expect(panel.getByTestId("deposit-token")).toContainText("USDC");
  await expect(panel.getByTestId("deposit-address")).toContainText(first?.address ?? "");
  // No vocabulary for a brand unless it opens the details.
  await expect(panel).not.toContainText(/relay|\bgas\b|EIP-3009|EIP-681/i, { useInnerText: true });
  await screenshots(brand, "deposit-awaiting");

  // Refunds to an exchange account instead: the field refuses what is not an address.
  await panel.getByTestId("refund-address").getByRole("button", { name: "Change" }).click();
  const refundField = panel.getByLabel("Refund address");
  await refundField.fill("0x1234");
  await panel.getByRole("button", { name: "Save the refund address" }).click();
  await expect(panel.getByTestId("refund-form")).toContainText("40 letters and digits");
  await expect(refundField).toHaveAttribute("aria-invalid", "true");
  // A capitalisation that breaks the checksum is a typo.
  const typo = `0x${EXCHANGE_DEPOSIT.slice(2, 10).toLowerCase()}${EXCHANGE_DEPOSIT.slice(10).toUpperCase()}`;
  await refundField.fill(typo);
  await panel.getByRole("button", { name: "Save the refund address" }).click();
  await expect(panel.getByTestId("refund-form")).toContainText("has a typo");
  await refundField.fill(EXCHANGE_DEPOSIT);
  await panel.getByRole("button", { name: "Save the refund address" }).click();
  await expect(panel.getByTestId("refund-address-value")).toHaveText(EXCHANGE_DEPOSIT);

  // The deposit address binds the refund address: a new one, and what the page shows.
  const deposit = (await funding(brand, dealId)).deposit as Deposit;
  expect(deposit.refundAddress).toBe(EXCHANGE_DEPOSIT);
  expect(deposit.address).not.toBe(first?.address);
  await expect(panel.getByTestId("deposit-address")).toContainText(deposit.address);

  // Copy puts the whole address on the clipboard and says so.
  await panel.getByRole("button", { name: "Copy deposit address" }).click();
  await expect(panel.getByRole("button", { name: "Copied deposit address" })).toBeVisible();
  await expect(panel.getByTestId("deposit-address").getByRole("status")).toHaveText(
    "Copied deposit address",
  );
  expect(await brand.evaluate(() => navigator.clipboard.readText())).toBe(deposit.address);

  // The QR code carries the payment URI: this token, this chain, this address, this amount.
  const qr = panel.getByTestId("deposit-qr");
  await expect(qr).toHaveAttribute("data-uri", deposit.paymentUri);
  expect(deposit.paymentUri).toContain(`/transfer?address=${deposit.address}&uint256=100000000`);
  await expect(qr.getByRole("img")).toHaveAccessibleName(new RegExp(deposit.address));
  await panel.getByText("Details", { exact: true }).click();
  await expect(panel.getByTestId("payment-uri")).toHaveText(deposit.paymentUri);
  await panel.getByText("Details", { exact: true }).click();

  // The "exchange" gets USDC (and gas money) and sends part of the amount.
  const { chain, client, balance, walletOf } = await localChain(brand);
  await api(brand, "POST", "/api/faucet/test-usdc", { address: PAYER.address });
  const wallet = walletOf(PAYER);
  const send = async (units: bigint) => {
    const hash = await wallet.writeContract({
      address: chain.usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [deposit.address, units],
    });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");
  };
  const payerBefore = await balance(PAYER.address);
  const exchangeBefore = await balance(EXCHANGE_DEPOSIT);
  const escrowBefore = await balance(chain.escrow);

  await send(40n * USDC);
  expect(await balance(deposit.address)).toBe(40n * USDC);
  await runReconcile();
  // The page moves on its own (it polls the funding state while it waits).
  await expect(status).toHaveAttribute("data-status", "underpaid", { timeout: 30_000 });
  await expect(status).toContainText("Received 40.00 USDC of 100.00 USDC");
  await expect(status).toContainText("60.00 USDC to go");
  // What to send now is the rest: the amount to copy and the QR code's payment say 60.
  const amount = panel.getByTestId("deposit-amount");
  await expect(amount.locator("dt")).toHaveText("Amount still to send");
  await expect(amount.locator("[data-value]")).toHaveText("60.00 USDC");
  await expect(amount.locator("[data-value]")).toHaveAttribute("data-value", "60");
  await expect(qr).toHaveAttribute("data-uri", /uint256=60000000$/);
  // Money came in: the refund address (bound into this address) can no longer change.
  await expect(
    panel.getByTestId("refund-address").getByRole("button", { name: "Change" }),
  ).toHaveCount(0);
  await screenshots(brand, "deposit-underpaid");

  // The top-up overshoots by 5 USDC: the sweep funds the deal and returns the excess.
  await send(65n * USDC);
  await runReconcile();
  await expect(brand.getByTestId("funded-notice")).toContainText(
    "100.00 USDC is locked in the escrow",
    { timeout: 30_000 },
  );
  await expect(brand.getByTestId("deal-status")).toHaveText("Open");
  await expect(brand.getByTestId("funding-panel")).toHaveCount(0);
  await expect(brand.getByTestId("deal-locked")).toHaveText("100.00 USDC");
  await screenshots(brand, "deposit-funded");

  // On-chain: the escrow holds the deal under the deposit address's key, refunds to the
  // exchange; the deposit address is empty; the excess went back; nothing else moved.
  const key = dealKey(deposit.address, dealId);
  const [, , , , cancelled, funded, released, refunded, locked] = await client.readContract({
    address: chain.escrow,
    abi: milestoneEscrowAbi,
    functionName: "getDeal",
    args: [key],
  });
  expect({ cancelled, funded, released, refunded, locked }).toEqual({
    cancelled: false,
    funded: 100n * USDC,
    released: 0n,
    refunded: 0n,
    locked: 100n * USDC,
  });
  expect(
    await client.readContract({
      address: chain.escrow,
      abi: milestoneEscrowAbi,
      functionName: "refundRecipient",
      args: [key],
    }),
  ).toBe(EXCHANGE_DEPOSIT);
  expect(await balance(deposit.address)).toBe(0n);
  expect(await balance(PAYER.address)).toBe(payerBefore - 105n * USDC);
  expect(await balance(EXCHANGE_DEPOSIT)).toBe(exchangeBefore + 5n * USDC);
  expect(await balance(chain.escrow)).toBe(escrowBefore + 100n * USDC);

  // A creator with no browser wallet either (the embedded one receives the payout) finds
  // the deal among the open ones and takes it.
  const creatorContext = await browser.newContext();
  const creator = await creatorContext.newPage();
  await signInWithEmbeddedWallet(creator, `deposit-creator-${stamp}@example.test`, "Creator");
  const creatorMe = await api<{ user: { walletAddress: Address } }>(creator, "GET", "/api/auth/me");
  const embedded = getAddress(creatorMe.user.walletAddress);
  const embeddedBefore = await balance(embedded);
  const exchangeBeforeSettle = await balance(EXCHANGE_DEPOSIT);
  await creator
    .getByTestId("open-deal")
    .filter({ hasText: brandEmail })
    .filter({ hasText: "TikTok Clip" })
    .getByRole("link", { name: "View & accept" })
    .click();
  await expect(creator).toHaveURL(new RegExp(`/deals/${dealId}$`));
  const accept = creator.getByTestId("accept-panel");
  await expect(accept.getByTestId("escrow-funded")).toContainText("100.00 USDC");
  await expect(accept.getByTestId("accept-wallet-required")).toHaveCount(0);
  await accept.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");
  await expect(creator.getByTestId("wallet-missing")).toHaveCount(0);

  // The handle is verified and the post published on the sandbox (every required tag; not on
  // TikTok, so the offline rubric approves it at 0.9), then submitted.
  const caption =
    "Honest shoutout: I get paid for every post with Milestone. #MilestonePartner #ad @milestone.app";
  const postUrl = await publishOnSandbox(creator, `deposit${stamp}`, caption);
  const form = creator.getByTestId("deliverable-form");
  await form.getByLabel("Post URL").fill(postUrl);
  await form.getByLabel(/Post text/).fill(caption);
  await form.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");
  await screenshots(creator, "deposit-creator-submitted");

  // The brand verifies and settles on the page, after the confirmation of both halves.
  await brand.reload();
  await expect(brand.getByTestId("deliverable")).toContainText(postUrl);
  await brand.getByRole("button", { name: "Verify" }).click();
  await expect(brand.getByTestId("verdict-approved")).toHaveText("Approved");
  await expect(brand.getByTestId("gate-preview")).toContainText("Settling pays 90.00 USDC");
  await brand.getByRole("button", { name: "Settle", exact: true }).click();
  const confirmRelease = brand.getByTestId("settle-confirm");
  await expect(confirmRelease).toContainText("90.00 USDC");
  await expect(confirmRelease).toContainText("10.00 USDC");
  // The remainder goes to the refund address the brand named, not to the deposit address.
  await expect(confirmRelease).toContainText(short(EXCHANGE_DEPOSIT));
  await screenshots(brand, "deposit-settle-confirm");
  await confirmRelease.getByRole("button", { name: "Confirm and release" }).click();
  await expect(brand.getByTestId("settle-steps").getByTestId("settle-confirmed")).toContainText(
    "Confirmed — 90.00 USDC paid to the creator, 10.00 USDC returned",
  );
  await expect(brand.getByTestId("milestone-status")).toHaveText("Paid");
  await expect(brand.getByTestId("deal-paid")).toHaveText("90.00 USDC");
  await screenshots(brand, "deposit-settled");

  // The creator's page shows the payout by itself (it polls).
  await expect(creator.getByTestId("paid-banner")).toContainText("You were paid 90.00 USDC");
  await expect(creator.getByTestId("milestone-status")).toHaveText("Paid");
  await screenshots(creator, "deposit-creator-paid");

  // On-chain: 90 to the creator's embedded wallet, the 10 rest to the refund address (the
  // exchange), nothing left locked.
  expect(await balance(embedded)).toBe(embeddedBefore + 90n * USDC);
  expect(await balance(EXCHANGE_DEPOSIT)).toBe(exchangeBeforeSettle + 10n * USDC);
  expect(await balance(EXCHANGE_DEPOSIT)).toBe(exchangeBefore + 15n * USDC);
  const [, , , , , , releasedAfter, refundedAfter, lockedAfter] = await client.readContract({
    address: chain.escrow,
    abi: milestoneEscrowAbi,
    functionName: "getDeal",
    args: [key],
  });
  expect({ released: releasedAfter, refunded: refundedAfter, locked: lockedAfter }).toEqual({
    released: 90n * USDC,
    refunded: 10n * USDC,
    locked: 0n,
  });

  // The creator sends 60 of the 90 on from /wallet (to an exchange, say), after the review.
  await creator.goto("/wallet");
  await expect(embeddedWalletItem(creator).getByTestId("money-wallet-balance")).toHaveText(
    "90.00 USDC",
  );
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  await reviewSend(creator, destination, "60", "60.00 USDC");
  expect(await balance(destination)).toBe(0n); // nothing moved before the confirmation
  await screenshots(creator, "deposit-payout-confirm");
  await confirmSend(creator, destination, "60.00 USDC", "30.00 USDC");
  await screenshots(creator, "deposit-payout-sent");
  expect(await balance(destination)).toBe(60n * USDC);
  expect(await balance(embedded)).toBe(embeddedBefore + 30n * USDC);
  await creatorContext.close();
  await context.close();
});
