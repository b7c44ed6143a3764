import { expect, type Page, test } from "@playwright/test";
import { type Address, createWalletClient, http } from "viem";
import { dealKey } from "@/lib/escrow/onchain";
import { milestoneEscrowAbi } from "../contracts/artifacts/MilestoneEscrow";
import {
  api,
  axeProblems,
  devAccount,
  fundGaslessly,
  screenshots,
  signIn,
  signInOn,
} from "./journey";

// The ledger in the browser (issue 27, point 5): a brand with no payments sees the empty
// state; after funding two deals (a signed authorization, relayed) and cancelling one of them
// from its wallet, /ledger lists two fundings and two refunds, filters to the refunds, exports
// them as CSV, and each has a printable receipt. The chain is reached the way an integrator
// reaches it: GET /api/chain.

const BRAND = devAccount(18); // not used by any other spec (journey.ts lists them)

async function newDeal(page: Page, title: string, amounts: number[]): Promise<string> {
  const { deal } = await api<{ deal: { id: string } }>(page, "POST", "/api/deals", {
    title,
    platform: "instagram",
    milestones: amounts.map((amount, i) => ({ title: `Post ${i + 1}`, amount })),
  });
  return deal.id;
}

test("a brand's payments: empty, then fundings and refunds, filtered, exported and receipted", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signInOn(page, `brand-ledger-${Date.now()}@example.test`, "Brand");

  // The account menu leads there; nothing yet.
  await page.getByRole("link", { name: "Payments" }).click();
  await expect(page).toHaveURL(/\/ledger$/);
  await expect(page.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  await expect(page.getByTestId("ledger-empty")).toContainText("No payments yet");
  await screenshots(page, "ledger-empty");

  // Two deals funded by signature; the second cancelled from the brand's wallet.
  const kept = await newDeal(page, "Spring launch", [25, 15]);
  const dropped = await newDeal(page, "Autumn teaser", [9, 11]);
  await fundGaslessly(page, kept, BRAND);
  await fundGaslessly(page, dropped, BRAND);
  const chain = await (await page.request.get("/api/chain")).json();
  const wallet = createWalletClient({ account: BRAND, transport: http(chain.rpcUrl) });
  await wallet.writeContract({
    chain: null,
    address: chain.escrow as Address,
    abi: milestoneEscrowAbi,
    functionName: "cancel",
    args: [dealKey(BRAND.address, dropped)],
  });
  await expect
    .poll(async () => {
      const res = await page.request.post(`/api/deals/${dropped}/cancel`, {
        headers: { origin: new URL(page.url()).origin, "content-type": "application/json" },
        data: "{}",
      });
      return res.ok() ? ((await res.json()) as { deal: { status: string } }).deal.status : "";
    })
    .toBe("cancelled");

  await page.goto("/ledger");
  const rows = page.getByTestId("ledger-row");
  await expect(rows).toHaveCount(4);
  await expect(page.locator('[data-kind="funding"]')).toHaveCount(2);
  await expect(page.locator('[data-kind="refund"]')).toHaveCount(2);
  await expect(page.getByTestId("ledger-table")).toContainText("Refund (deal cancelled)");
  await expect(page.getByTestId("ledger-table")).toContainText("40.000000");
  expect(await axeProblems(page)).toEqual([]);
  await screenshots(page, "ledger");

  // Filter to the refunds (a plain form: the address carries the filter).
  await page.getByLabel("Kind").selectOption("refund");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/kind=refund/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Clear" })).toBeVisible();

  // Export CSV: the same filter, as an attachment.
  const href = (await page.getByTestId("ledger-export").getAttribute("href")) as string;
  expect(href).toBe("/api/ledger.csv?kind=refund");
  const csv = await page.request.get(href);
  expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="milestone-ledger-/);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toMatch(/^date,id,kind,reason,role,deal_id,deal,milestone,amount,/);
  expect(lines.slice(1).map((l) => l.split(",")[3])).toEqual(["cancel", "cancel"]);

  // A receipt, printable: the amount, the parties, the transaction.
  await rows
    .first()
    .getByRole("link", { name: /^Receipt/ })
    .click();
  await expect(page).toHaveURL(/\/ledger\/receipts\/refund-/);
  await expect(page.getByRole("heading", { name: "Refund (deal cancelled)" })).toBeVisible();
  await expect(page.getByTestId("receipt-amount")).toHaveText(/^(9|11)\.000000 USDC$/);
  await expect(page.getByText(BRAND.address).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  await screenshots(page, "ledger-receipt");
  await page.emulateMedia({ media: "print" });
  await expect(page.locator("header.header")).toBeHidden();
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeHidden();
  await page.screenshot({ path: "e2e/screenshots/ledger-receipt-print.png", fullPage: true });
  await page.emulateMedia({ media: "screen" });
  const receiptUrl = page.url();

  // The API docs explain funding to an integrator (the examples are run by the unit tests).
  await page.goto("/docs#funding");
  await expect(page.getByRole("heading", { name: "Funding a deal", level: 2 })).toBeVisible();
  await expect(page.getByText("ReceiveWithAuthorization").first()).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);

  // Someone else's receipt is not found.
  const stranger = await signIn(browser, `brand-ledger-other-${Date.now()}@example.test`, "Brand");
  const other = await stranger.goto(receiptUrl);
  expect(other?.status()).toBe(404);
});
