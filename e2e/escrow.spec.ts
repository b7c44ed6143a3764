import { expect, type Page, test } from "@playwright/test";
import {
  type Address,
  createPublicClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { dealKey } from "@/lib/escrow/onchain";
import { milestoneEscrowAbi } from "../contracts/artifacts/MilestoneEscrow";
import { connectTestWallet, devAddress, screenshots, short, signIn } from "./journey";
import { publishOnSandbox } from "./sandbox";

// The money journey on the embedded setup (dev identity provider, offline rubric verifier,
// local anvil), checked on-chain: a brand funds a starter deal's escrow from its own wallet
// (wagmi's mock connector for an anvil dev account the server never uses) after one-click
// test USDC; a creator with a linked wallet takes it and delivers; the brand settles, and the
// escrow pays the creator their share and returns the rest to the brand in one transaction.
// Then the other two ways money moves: gasless funding by signature, and a funded deal
// nobody took cancelled from the brand's wallet.

// deals.spec.ts uses accounts 4, 5 and 8, wallet.spec.ts account 9; the server 0 and 1.
const BRAND_WALLET = devAddress(7); // 0x14dC79964da2C08b23698B3D3cc7Ca32193d9955
const CREATOR_WALLET = devAddress(6); // 0x976EA74026E726554dB657fA54763abd0C3a0aa9
const USDC = 1_000_000n;

/** The escrow keys a deal by its funder: the deal `id` funded from the brand's wallet. */
const dealKeyOf = (id: string) => dealKey(BRAND_WALLET, id);

/**
 * The chain the app runs on, read like the browser does: the public chain info the page
 * carries (its RPC endpoint), checked against the server's own view (GET /api/health).
 */
async function chainOf(page: Page): Promise<PublicClient> {
  // The wallet pages carry it (the wallet stack is mounted only where a wallet is used).
  const html = await (await page.request.get("/wallet")).text();
  const rpcUrl = /rpcUrl\\*"\s*:\s*\\*"(https?:\/\/[^"\\]+)/.exec(html)?.[1];
  expect(rpcUrl, "the page's public chain info names its RPC").toBeTruthy();
  const health = (await (await page.request.get("/api/health")).json()) as {
    chain: { chainId: number };
  };
  const client = createPublicClient({ transport: http(rpcUrl) });
  expect(await client.getChainId()).toBe(health.chain.chainId);
  return client as PublicClient;
}

type Funding = { escrow: Address; usdc: Address; dealKey: Hex; totalUnits: string };

async function fundingTerms(page: Page, dealId: string): Promise<Funding> {
  const res = await page.request.get(`/api/deals/${dealId}/funding?brand=${BRAND_WALLET}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { funding: Funding }).funding;
}

function onChain(client: PublicClient, terms: Funding) {
  const balance = (address: Address) =>
    client.readContract({
      address: terms.usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [address],
    });
  const deal = async () => {
    const [brand, , creator, , cancelled, funded, released, refunded, locked] =
      await client.readContract({
        address: terms.escrow,
        abi: milestoneEscrowAbi,
        functionName: "getDeal",
        args: [terms.dealKey],
      });
    return { brand, creator, cancelled, funded, released, refunded, locked };
  };
  return { balance, deal };
}

/** The deal page of a brand's deal, from its dashboard card. */
async function openDeal(page: Page, title: string): Promise<string> {
  await page
    .locator("#main")
    .getByTestId("deal-card")
    .filter({ hasText: title })
    .getByRole("link", { name: title })
    .click();
  await expect(page).toHaveURL(/\/deals\/[0-9a-f-]{36}$/);
  return page.url().split("/deals/")[1] ?? "";
}

/** Connects the brand's wallet in the funding panel and tops it up with test USDC if short. */
async function prepareFunding(page: Page, total: string) {
  const panel = page.getByTestId("funding-panel");
  await expect(panel.getByTestId("funding-total")).toHaveText(total);
  await connectTestWallet(panel, BRAND_WALLET);
  const balance = panel.getByTestId("funding-balance");
  await expect(balance).toContainText(/enough for this deal|short of the total/);
  if ((await balance.textContent())?.includes("short")) {
    await panel.getByRole("button", { name: "Get test USDC" }).click();
    await expect(panel.getByTestId("test-usdc-result")).toContainText(
      "Received 1,000.00 test USDC",
    );
    await expect(balance).toContainText("enough for this deal");
  }
  return panel;
}

test("a brand funds the escrow from its wallet; settling pays the creator and returns the rest, on-chain", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const brandEmail = `escrow-brand-${stamp}@example.test`;
  const creatorEmail = `escrow-creator-${stamp}@example.test`;

  // The brand adds the starter deals: they wait for funding, invisible to creators.
  const brand = await signIn(browser, brandEmail, "Brand", BRAND_WALLET);
  await brand.getByRole("button", { name: "Add the three starter deals" }).click();
  const cards = brand.locator("#main").getByTestId("deal-card");
  await expect(cards).toHaveCount(3);
  await expect(cards.getByTestId("deal-status")).toHaveText([
    "Waiting for funding",
    "Waiting for funding",
    "Waiting for funding",
  ]);
  await expect(brand.getByTestId("unfunded-note")).toContainText("3 deals are waiting for funding");

  // The Instagram deal: two milestones, 80 + 120 USDC.
  const dealId = await openDeal(brand, "Instagram Reel — Product Launch");
  await expect(brand.getByTestId("deal-status")).toHaveText("Waiting for funding");
  const split = brand.getByTestId("funding-split");
  await expect(split).toContainText("Teaser story");
  await expect(split).toContainText("80.00 USDC");
  await expect(split).toContainText("120.00 USDC");
  await screenshots(brand, "escrow-funding-disconnected");

  const panel = await prepareFunding(brand, "200.00 USDC");
  const terms = await fundingTerms(brand, dealId);
  expect(terms.totalUnits).toBe("200000000");
  expect(terms.dealKey).toBe(dealKeyOf(dealId));
  const client = await chainOf(brand);
  const chain = onChain(client, terms);
  const brandBefore = await chain.balance(BRAND_WALLET);
  const escrowBefore = await chain.balance(terms.escrow);
  expect((await chain.deal()).funded).toBe(0n);
  await screenshots(brand, "escrow-funding");

  // Nothing moves before the brand has seen exactly what is locked and where refunds go.
  await panel.getByRole("button", { name: "Review and fund" }).click();
  const confirm = panel.getByTestId("funding-confirm");
  await expect(confirm).toContainText("Lock 200.00 USDC in the escrow");
  await expect(confirm).toContainText("Refunds go to");
  await expect(confirm.getByRole("link", { name: short(BRAND_WALLET) })).toBeVisible();
  await expect(confirm.getByRole("link", { name: short(terms.escrow) })).toBeVisible();
  await screenshots(brand, "escrow-funding-confirm");
  await confirm.getByRole("button", { name: "Approve and fund" }).click();

  // Approve → fund → the server confirms from the chain and opens the deal.
  const notice = brand.getByTestId("funded-notice");
  await expect(notice).toContainText("200.00 USDC is locked in the escrow");
  await expect(brand.getByTestId("deal-status")).toHaveText("Open");
  await expect(brand.getByTestId("funding-panel")).toHaveCount(0);
  await expect(brand.getByTestId("deal-locked")).toHaveText("200.00 USDC");
  await expect(brand.getByTestId("funding-tx")).toHaveAttribute(
    "href",
    /^\/explorer\/tx\/0x[0-9a-f]{64}$/,
  );
  await expect(brand.getByTestId("cancel-deal")).toContainText("Nobody has taken this deal yet");
  await screenshots(brand, "escrow-funded");

  // On-chain: exactly the total left the brand's wallet for the escrow, under its terms.
  expect(await chain.balance(BRAND_WALLET)).toBe(brandBefore - 200n * USDC);
  expect(await chain.balance(terms.escrow)).toBe(escrowBefore + 200n * USDC);
  const funded = await chain.deal();
  expect(getAddress(funded.brand)).toBe(BRAND_WALLET);
  expect(funded.funded).toBe(200n * USDC);
  expect(funded.locked).toBe(200n * USDC);

  // A creator links a wallet (signing with the test wallet) and sees the funded deal.
  const creator = await signIn(browser, creatorEmail, "Creator", CREATOR_WALLET);
  const walletPanel = creator.getByTestId("wallet-panel");
  await connectTestWallet(walletPanel, CREATOR_WALLET);
  await walletPanel.getByRole("button", { name: "Link this wallet" }).click();
  await expect(walletPanel.getByTestId("wallet-linked")).toBeVisible();
  const open = creator.getByTestId("open-deal").filter({ hasText: brandEmail });
  await expect(open).toHaveCount(1); // the two unfunded starter deals stay hidden
  await expect(open).toContainText("Instagram Reel — Product Launch");
  await expect(open).toContainText("Funded in escrow");
  await open.getByRole("link", { name: "View & accept" }).click();
  await expect(creator.getByTestId("escrow-funded")).toContainText("200.00 USDC");
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");
  const assigned = await chain.deal();
  expect(getAddress(assigned.creator)).toBe(CREATOR_WALLET);

  // The teaser: every tag, mention and link, published on the sandbox platform rather than
  // Instagram, so the offline rubric approves it at 0.9: 72 of its 80 USDC.
  const teaserUrl = await publishOnSandbox(
    creator,
    `escrow${Date.now()}`,
    "The Milestone app launches on June 1 — see it on screen now! #MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
  );
  const form = creator.getByTestId("deliverable-form").first();
  await form.getByLabel("Post URL").fill(teaserUrl);
  await form
    .getByLabel(/Post text/)
    .fill(
      "The Milestone app launches on June 1 — see it on screen now! #MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
    );
  await form.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status").first()).toHaveText("Submitted");

  // The brand verifies, then settles after confirming both halves.
  await brand.goto(`/deals/${dealId}`);
  const teaser = brand.getByTestId("milestone").first();
  await teaser.getByRole("button", { name: "Verify" }).click();
  await expect(teaser.getByTestId("verdict-score")).toHaveText("Score 90%");
  await expect(teaser.getByTestId("gate-preview")).toContainText(
    "Settling pays 72.00 USDC to the creator",
  );
  await expect(teaser.getByTestId("gate-preview")).toContainText("returns 8.00 USDC to you");

  const creatorBefore = await chain.balance(CREATOR_WALLET);
  const brandBeforeSettle = await chain.balance(BRAND_WALLET);
  const escrowBeforeSettle = await chain.balance(terms.escrow);

  await teaser.getByRole("button", { name: "Settle", exact: true }).click();
  const settleConfirm = teaser.getByTestId("settle-confirm");
  await expect(settleConfirm).toContainText("72.00 USDC");
  await expect(settleConfirm).toContainText("8.00 USDC");
  await expect(settleConfirm.getByRole("link", { name: short(CREATOR_WALLET) })).toBeVisible();
  await expect(settleConfirm.getByRole("link", { name: short(BRAND_WALLET) })).toBeVisible();
  await screenshots(brand, "escrow-settle-confirm");
  await settleConfirm.getByRole("button", { name: "Confirm and release" }).click();
  await expect(teaser.getByTestId("settle-confirmed")).toHaveText(
    "Confirmed — 72.00 USDC paid to the creator, 8.00 USDC returned to you",
  );
  await expect(teaser.getByTestId("milestone-status")).toHaveText("Paid");

  // The payment view shows both halves, the explorer link and the verdict hash it carried.
  const res = await brand.request.get(`/api/deals/${dealId}`);
  const { deal } = (await res.json()) as {
    deal: {
      escrow: { locked: string; released: string; refunded: string };
      milestones: Array<{
        settlement: {
          amount: string;
          refund: string;
          verdictHash: string;
          txHash: string;
          status: string;
        } | null;
      }>;
    };
  };
  const settlement = deal.milestones[0]?.settlement;
  expect(settlement).toMatchObject({
    amount: "72.000000",
    refund: "8.000000",
    status: "confirmed",
  });
  expect(settlement?.verdictHash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(deal.escrow).toMatchObject({
    locked: "120.000000",
    released: "72.000000",
    refunded: "8.000000",
  });
  const payment = teaser.getByTestId("settlement");
  await expect(payment.getByTestId("settlement-amount")).toHaveText("72.00 USDC");
  await expect(payment.getByTestId("settlement-refund")).toHaveText("8.00 USDC");
  await expect(payment).toContainText("Returned to you");
  await expect(payment.getByTestId("verdict-hash")).toHaveAttribute(
    "title",
    settlement?.verdictHash ?? "",
  );
  await expect(payment.getByRole("link", { name: "View transaction" })).toHaveAttribute(
    "href",
    `/explorer/tx/${settlement?.txHash}`,
  );
  await expect(brand.getByTestId("deal-locked")).toHaveText("120.00 USDC");
  await expect(brand.getByTestId("deal-paid")).toHaveText("72.00 USDC");
  await expect(brand.getByTestId("deal-refunded")).toHaveText("8.00 USDC");
  await screenshots(brand, "escrow-settled");

  // On-chain, to the base unit: the creator got 72, the brand 8, and the escrow holds 80 less.
  expect(await chain.balance(CREATOR_WALLET)).toBe(creatorBefore + 72n * USDC);
  expect(await chain.balance(BRAND_WALLET)).toBe(brandBeforeSettle + 8n * USDC);
  expect(await chain.balance(terms.escrow)).toBe(escrowBeforeSettle - 80n * USDC);
  const settled = await chain.deal();
  expect(settled).toMatchObject({
    locked: 120n * USDC,
    released: 72n * USDC,
    refunded: 8n * USDC,
  });
  const [, state] = await client.readContract({
    address: terms.escrow,
    abi: milestoneEscrowAbi,
    functionName: "getMilestone",
    args: [terms.dealKey, 0n],
  });
  expect(state).toBe(1); // Released

  // The creator's page shows what they were paid and what went back.
  await expect(creator.getByTestId("paid-banner")).toContainText("You were paid 72.00 USDC");
  await expect(creator.getByTestId("paid-banner")).toContainText(
    "The rest, 8.00 USDC, went back to the brand",
  );
  await screenshots(creator, "escrow-creator-paid");

  // The dashboard card: locked / paid / returned.
  await brand.goto("/brand");
  const card = brand
    .locator("#main")
    .getByTestId("deal-card")
    .filter({ hasText: "Instagram Reel" });
  await expect(card.getByTestId("card-locked")).toHaveText("120.00 USDC");
  await expect(card.getByTestId("card-paid")).toHaveText("72.00 USDC");
  await expect(card.getByTestId("card-refunded")).toHaveText("8.00 USDC");
  await expect(brand.locator("#main").getByTestId("brand-totals")).toContainText(
    "120.00 USDC locked",
  );
  await screenshots(brand, "escrow-brand-dashboard");
});

test("gasless funding by signature, then the untaken deal is cancelled from the brand's wallet", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const brand = await signIn(
    browser,
    `escrow-sign-${Date.now()}@example.test`,
    "Brand",
    BRAND_WALLET,
  );
  await brand.getByRole("button", { name: "Add the three starter deals" }).click();
  await expect(brand.locator("#main").getByTestId("deal-card")).toHaveCount(3);
  const dealId = await openDeal(brand, "TikTok Clip — Brand Shoutout");

  const panel = await prepareFunding(brand, "100.00 USDC");
  const terms = await fundingTerms(brand, dealId);
  const client = await chainOf(brand);
  const chain = onChain(client, terms);
  const brandBefore = await chain.balance(BRAND_WALLET);
  const gasBefore = await client.getBalance({ address: BRAND_WALLET });

  // Sign instead: one EIP-3009 signature; the service's relayer submits it and pays the gas.
  await panel.getByRole("button", { name: "Review and fund" }).click();
  await panel
    .getByTestId("funding-confirm")
    .getByRole("button", { name: "Sign instead (no fees)" })
    .click();
  await expect(brand.getByTestId("funded-notice")).toContainText(
    "100.00 USDC is locked in the escrow",
  );
  await expect(brand.getByTestId("deal-status")).toHaveText("Open");
  expect(await chain.balance(BRAND_WALLET)).toBe(brandBefore - 100n * USDC);
  expect(await client.getBalance({ address: BRAND_WALLET })).toBe(gasBefore); // no gas spent
  expect(await chain.deal()).toMatchObject({ funded: 100n * USDC, locked: 100n * USDC });

  // Nobody took it: the brand cancels from the funding wallet and gets it all back.
  const cancel = brand.getByTestId("cancel-deal");
  await cancel.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(cancel).toContainText("100.00 USDC go back at once to");
  await connectTestWallet(cancel, BRAND_WALLET);
  await screenshots(brand, "escrow-cancel-confirm");
  await cancel.getByRole("button", { name: "Cancel the deal from my wallet" }).click();
  await expect(brand.getByTestId("deal-status")).toHaveText("Cancelled");
  await expect(brand.getByTestId("milestone-status")).toHaveText("Refunded to you");
  await expect(brand.getByTestId("deal-refunded")).toHaveText("100.00 USDC");
  await expect(brand.getByTestId("deal-locked")).toHaveText("0.00 USDC");
  await screenshots(brand, "escrow-cancelled");

  expect(await chain.balance(BRAND_WALLET)).toBe(brandBefore);
  expect(await chain.deal()).toMatchObject({
    cancelled: true,
    refunded: 100n * USDC,
    locked: 0n,
  });
});
