import { expect, type Page, test } from "@playwright/test";
import { api, devAccount, fundGaslessly, screenshots, signIn } from "./journey";
import { publishOnSandbox } from "./sandbox";

// People in the loop, in the browser: the AI rejects, the creator appeals, the brand pays
// 80 % after a confirmation, and the timeline and the inbox tell both sides; then a brand
// that goes silent, and the creator settling once the review window has passed (time moved
// with the demo's test clock, not by waiting). Set-up that is not the point here (creating
// and funding the deal) goes through the API, with the brand's dev wallet signing the
// gasless funding authorization in the test.

// Dev accounts 2, 3 and 12 are this file's alone (wallet.spec uses 9; the brand funds gaslessly).
const BRAND = devAccount(12);
const CREATOR = devAccount(2);
const CREATOR_2 = devAccount(3);

/** Creates a one-milestone deal and funds its escrow with a signed EIP-3009 authorization. */
async function fundedDeal(brand: Page, title: string): Promise<string> {
  const { deal } = await api<{ deal: { id: string } }>(brand, "POST", "/api/deals", {
    title,
    platform: "youtube",
    milestones: [
      {
        title: "Launch video",
        amount: 50,
        requirements: { hashtags: ["#MilestoneLaunch"], criteria: [] },
      },
    ],
  });
  await fundGaslessly(brand, deal.id, BRAND);
  return deal.id;
}

/** The creator links the test wallet on the dashboard, then takes the deal in the UI. */
async function linkAndAccept(creator: Page, address: string, dealId: string) {
  const walletPanel = creator.getByTestId("wallet-panel");
  await walletPanel.getByRole("button", { name: "Connect test wallet" }).click();
  await walletPanel.getByRole("button", { name: "Link this wallet" }).click();
  await expect(walletPanel.getByTestId("wallet-linked")).toBeVisible();
  await creator.goto(`/deals/${dealId}`);
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");
  expect(address).toMatch(/^0x/);
}

/** Publishes `caption` on the sandbox platform and submits that post: the verdict reads it. */
async function submitDeliverable(creator: Page, handle: string, caption: string) {
  const url = await publishOnSandbox(creator, handle, caption);
  const text = caption;
  const form = creator.getByTestId("deliverable-form");
  await form.getByLabel("Post URL").fill(url);
  await form.getByLabel(/Post text/).fill(text);
  await form.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");
}

test("rejected → appeal → the brand pays 80 % → the creator is paid, and both see every step", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const brand = await signIn(browser, `brand-appeal-${stamp}@example.test`, "Brand");
  const creator = await signIn(
    browser,
    `creator-appeal-${stamp}@example.test`,
    "Creator",
    CREATOR.address,
  );
  const dealId = await fundedDeal(brand, "YouTube launch — appeal journey");
  await linkAndAccept(creator, CREATOR.address, dealId);
  // The required hashtag is missing from the post: the verifier rejects it.
  await submitDeliverable(creator, `appeal${stamp}`, "Launch video for Milestone, out now.");

  // The brand settles; the gate fails and nothing moves.
  await brand.goto(`/deals/${dealId}`);
  await brand.getByRole("button", { name: "Verify" }).click();
  await brand.getByRole("button", { name: "Reject and ask to resubmit" }).click();
  await expect(brand.getByTestId("milestone-status")).toHaveText("Rejected");

  // The creator is told, and appeals.
  await creator.reload();
  await expect(creator.getByTestId("unread-count")).toBeVisible();
  await creator.getByTestId("appeal-open").click();
  await creator.getByTestId("appeal-reason").fill("The hashtag is in the video's pinned comment.");
  await creator.getByTestId("appeal-submit").click();
  await expect(creator.getByTestId("appeal")).toContainText("waiting for the brand’s decision");

  // The brand decides to pay 80 %: the confirmation shows both halves before money moves.
  await brand.reload();
  await expect(brand.getByTestId("appeal")).toContainText("pinned comment");
  const form = brand.getByTestId("decision-form");
  await form.getByTestId("decision-percent").fill("80");
  await form.getByTestId("decision-reason").fill("Fine — the hashtag is in the pinned comment.");
  await form.getByTestId("decision-review").click();
  const decision = brand.getByTestId("decision-confirm");
  await expect(decision).toContainText("40.00 USDC");
  await expect(decision).toContainText("10.00 USDC");
  await screenshots(brand, "deal-brand-decision-confirm");
  await decision.getByTestId("decision-confirm-button").click();
  await expect(brand.getByTestId("milestone-status")).toHaveText("Paid");
  await expect(brand.getByTestId("decision")).toContainText("decided to pay at 80%");

  // The creator was paid 80 % of 50 USDC on-chain, and the timeline shows every step.
  await creator.reload();
  await expect(creator.getByTestId("paid-banner")).toContainText("You were paid 40.00 USDC");
  const timeline = creator.getByTestId("timeline");
  for (const type of [
    "funded",
    "taken",
    "submitted",
    "verified",
    "rejected",
    "appealed",
    "decided",
    "approved",
    "paid",
  ])
    await expect(timeline.locator(`[data-type="${type}"]`)).toHaveCount(1);
  await expect(timeline).toContainText("appealed the rejection");
  await expect(timeline).toContainText("Fine — the hashtag is in the pinned comment.");
  await screenshots(creator, "deal-creator-timeline");
  const { deal } = await api<{
    deal: { milestones: Array<{ settlement: { amount: string; status: string } }> };
  }>(creator, "GET", `/api/deals/${dealId}`);
  expect(deal.milestones[0]?.settlement).toMatchObject({
    amount: "40.000000",
    status: "confirmed",
  });

  // The inbox: the brand's decision and payment are unread until the creator reads them.
  await expect(creator.getByTestId("unread-count")).toBeVisible();
  await creator.getByTestId("inbox-link").click();
  await expect(creator.getByTestId("inbox-list")).toContainText("approved");
  await screenshots(creator, "inbox");
  await creator.getByRole("button", { name: "Mark all read" }).click();
  await expect(creator.getByTestId("inbox-unread")).toHaveText("Nothing unread");
  await expect(creator.getByTestId("unread-count")).toHaveCount(0);
});

test("a brand that goes silent cannot stall the payment: the creator settles after the review window", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const brand = await signIn(browser, `brand-silent-${stamp}@example.test`, "Brand");
  const creator = await signIn(
    browser,
    `creator-silent-${stamp}@example.test`,
    "Creator",
    CREATOR_2.address,
  );
  const dealId = await fundedDeal(brand, "YouTube launch — silent brand");
  await linkAndAccept(creator, CREATOR_2.address, dealId);
  await submitDeliverable(
    creator,
    `silent${stamp}`,
    "Launch day with Milestone! #MilestoneLaunch #ad",
  );
  await expect(creator.getByTestId("review-window")).toContainText("The brand has until");
  // Before the window ends the API refuses too.
  const early = await creator.request.post("/api/settle", {
    headers: { origin: new URL(creator.url()).origin, "content-type": "application/json" },
    data: JSON.stringify({ milestoneId: await milestoneId(creator, dealId) }),
  });
  expect(early.status()).toBe(409);
  expect((await early.json()).error.code).toBe("review_window_open");

  // A week and a day pass on the service's clock; the timers run (as the cron route does).
  await api(creator, "POST", "/api/dev/clock", { advanceSeconds: 8 * 24 * 3600 });
  await creator.reload();
  await creator.getByTestId("creator-settle-button").click();
  await creator.getByTestId("creator-settle-confirm-button").click();
  await expect(creator.getByTestId("paid-banner")).toContainText("You were paid");
  await expect(creator.getByTestId("milestone-status")).toHaveText("Paid");
  await screenshots(creator, "deal-creator-settled-after-window");
  // The brand is told.
  await brand.goto("/inbox");
  await expect(brand.getByTestId("inbox-list")).toContainText("paid");
});

async function milestoneId(page: Page, dealId: string): Promise<string> {
  const { deal } = await api<{ deal: { milestones: Array<{ id: string }> } }>(
    page,
    "GET",
    `/api/deals/${dealId}`,
  );
  return deal.milestones[0]?.id ?? "";
}
