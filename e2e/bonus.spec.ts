import { expect, test } from "@playwright/test";
import { type Address, erc20Abi, getAddress } from "viem";
import {
  api,
  axeProblems,
  devAccount,
  fundGaslessly,
  localChain,
  screenshots,
  signInWithEmbeddedWallet,
} from "./journey";
import { publishOnSandbox } from "./sandbox";

// Bonuses (issue 24, item 5), both parties in their own browser contexts: a deal's milestone
// is paid (created, funded and settled through the API: not the point here), then the brand
// sends a bonus from the deal page — the form, a confirmation before anything moves, the
// funding (by transfer to the bonus's deposit address, the panel every deal uses) and the
// release through the escrow. The creator's on-chain USDC balance rises by exactly the bonus,
// and the bonus is on both parties' pages and timelines.

// Dev accounts 19 and 20 are this file's alone (journey.ts lists the others): 19 signs the
// deal's gasless funding, 20 is the wallet (an exchange, say) that pays the bonus's address.
const FUNDER = devAccount(19);
const PAYER = devAccount(20);
const CAPTION = "Launch day! The Milestone app pays creators per milestone. #launch #ad";
const MESSAGE = "Thank you — the launch post did <b>great</b>!";

test("after a paid milestone the brand sends a bonus; the creator's on-chain balance rises by exactly it", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const brand = await (await browser.newContext()).newPage();
  await signInWithEmbeddedWallet(brand, `bonus-brand-${stamp}@example.test`, "Brand");
  const creator = await (await browser.newContext()).newPage();
  await signInWithEmbeddedWallet(creator, `bonus-creator-${stamp}@example.test`, "Creator");

  const { deal } = await api<{ deal: { id: string; milestones: { id: string }[] } }>(
    brand,
    "POST",
    "/api/deals",
    {
      title: "Instagram launch — bonus journey",
      platform: "instagram",
      milestones: [
        { title: "Launch post", amount: 20, requirements: { hashtags: ["#launch"], criteria: [] } },
      ],
    },
  );
  await fundGaslessly(brand, deal.id, FUNDER);
  await creator.goto(`/deals/${deal.id}`);
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");
  const url = await publishOnSandbox(creator, `bonus${stamp}`, CAPTION);
  await api(creator, "POST", `/api/milestones/${deal.milestones[0]?.id}/deliverable`, {
    url,
    text: CAPTION,
  });
  const settled = await api<{ outcome: string }>(brand, "POST", "/api/settle", {
    milestoneId: deal.milestones[0]?.id,
  });
  expect(settled.outcome).toBe("paid");

  // The creator's wallet, read on-chain.
  const me = await api<{ user: { walletAddress: string } }>(creator, "GET", "/api/auth/me");
  const creatorWallet = getAddress(me.user.walletAddress);
  const { chain, client, balance, walletOf } = await localChain(brand);
  const before = await balance(creatorWallet);

  // The brand's form, a confirmation first: nothing exists or moves before it.
  await brand.goto(`/deals/${deal.id}`);
  const panel = brand.getByTestId("bonuses");
  const form = panel.getByTestId("bonus-form");
  await form.getByLabel("Amount (USDC)").fill("abc");
  await form.getByTestId("send-bonus").click();
  await expect(form.getByRole("alert")).toContainText("Enter an amount in USDC");
  await form.getByLabel("Amount (USDC)").fill("7.5");
  await form.getByLabel(/Message to/).fill(MESSAGE);
  await form.getByTestId("send-bonus").click();
  const confirm = form.getByTestId("confirm-bonus");
  await expect(confirm).toContainText("7.50 USDC");
  expect(await axeProblems(brand)).toEqual([]);
  expect(
    (await api<{ bonuses: unknown[] }>(brand, "GET", `/api/deals/${deal.id}/bonuses`)).bonuses,
  ).toEqual([]);
  await confirm.getByTestId("confirm-bonus-button").click();

  // Funded like a deal: the bonus's own deposit address, paid by transfer.
  const funding = panel.getByTestId("bonus-funding");
  await expect(funding.getByTestId("funding-panel")).toBeVisible();
  await expect(panel.getByTestId("bonus-status")).toHaveText("Waiting for funding");
  const { bonuses } = await api<{ bonuses: { id: string; amountUnits: string }[] }>(
    brand,
    "GET",
    `/api/deals/${deal.id}/bonuses`,
  );
  expect(bonuses).toHaveLength(1);
  expect(bonuses[0]?.amountUnits).toBe("7500000");
  const terms = await api<{ funding: { deposit: { address: Address } } }>(
    brand,
    "GET",
    `/api/deals/${bonuses[0]?.id}/funding`,
  );
  await expect(funding.getByTestId("deposit-address")).toContainText(terms.funding.deposit.address);
  expect(await axeProblems(brand)).toEqual([]);
  await screenshots(brand, "bonus-brand-funding");
  await api(brand, "POST", "/api/faucet/test-usdc", { address: PAYER.address });
  const hash = await walletOf(PAYER).writeContract({
    address: chain.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [terms.funding.deposit.address, 7_500_000n],
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success");

  // Released through the escrow: progress, then paid with its transaction.
  await funding.getByTestId("release-bonus").click();
  const sent = panel.getByTestId("bonus").first();
  await expect(sent).toHaveAttribute("data-status", "paid", { timeout: 60_000 });
  await expect(sent.getByTestId("bonus-amount")).toHaveText("7.50 USDC");
  await expect(sent.getByTestId("bonus-message")).toHaveText(MESSAGE);
  await expect(sent.getByTestId("bonus-tx")).toBeVisible();
  expect(await balance(creatorWallet)).toBe(before + 7_500_000n);
  await expect(panel.getByTestId("bonus-form")).toBeVisible(); // another one may follow
  expect(await axeProblems(brand)).toEqual([]);
  await screenshots(brand, "bonus-brand-paid");

  // Both parties: the bonus on the page (its message as text) and on the timeline.
  for (const page of [brand, creator]) {
    await page.goto(`/deals/${deal.id}`);
    const shown = page.getByTestId("bonuses").getByTestId("bonus").first();
    await expect(shown).toHaveAttribute("data-status", "paid");
    await expect(shown.getByTestId("bonus-message")).toHaveText(MESSAGE);
    const timeline = page.getByTestId("timeline");
    await expect(timeline.locator('[data-type="bonus.paid"]')).toHaveCount(1);
    await expect(timeline.locator('[data-type="bonus.funded"]')).toHaveCount(1);
  }
  await expect(creator.getByTestId("bonuses").getByTestId("bonus-form")).toHaveCount(0);
  await expect(creator.getByTestId("timeline")).toContainText("received a bonus of 7.50 USDC");
  await screenshots(creator, "bonus-creator");
  expect(await balance(creatorWallet)).toBe(before + 7_500_000n);
});
