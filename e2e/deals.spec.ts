import { expect, type Page, test } from "@playwright/test";
import { axeProblems, connectTestWallet, devAddress, screenshots, short, signIn } from "./journey";
import { publishOnSandbox } from "./sandbox";

// The deals journey on the embedded setup (dev identity provider, offline rubric verifier,
// local anvil): a brand adds the starter deals and funds one's escrow from its wallet
// (wagmi's mock connector for anvil dev account 4, after one-click test USDC); a creator links
// a wallet (dev account 8), accepts the deal and submits a deliverable; the brand verifies
// and settles it; the creator sees the payout and the USDC on-chain.
// (e2e/escrow.spec.ts checks the escrow's money movements on-chain in detail.)

const WALLET = devAddress(8);
const SHORT = `${WALLET.slice(0, 6)}…${WALLET.slice(-4)}`;
const BRAND_WALLET = devAddress(4);
const CREATOR_WALLET_2 = devAddress(5);

/**
 * Funds the open deal page's escrow through the UI: connect the brand's test wallet, get
 * test USDC if short, review, approve and fund; the deal opens.
 */
async function fundInUi(page: Page, wallet: string, total: string) {
  const panel = page.getByTestId("funding-panel");
  await expect(panel.getByTestId("funding-total")).toHaveText(total);
  await connectTestWallet(panel, wallet);
  const balance = panel.getByTestId("funding-balance");
  await expect(balance).toContainText(/enough for this deal|short of the total/);
  if ((await balance.textContent())?.includes("short")) {
    await panel.getByRole("button", { name: "Get test USDC" }).click();
    await expect(balance).toContainText("enough for this deal");
  }
  await panel.getByRole("button", { name: "Review and fund" }).click();
  const confirm = panel.getByTestId("funding-confirm");
  await expect(confirm).toContainText(`Lock ${total} in the escrow`);
  await confirm.getByRole("button", { name: "Approve and fund" }).click();
  await expect(page.getByTestId("funded-notice")).toContainText(`${total} is locked in the escrow`);
  await expect(page.getByTestId("deal-status")).toHaveText("Open");
}

test("brand posts starter deals, creator delivers, brand verifies and settles, creator is paid", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const brandEmail = `brand-${stamp}@example.test`;
  const creatorEmail = `creator-${stamp}@example.test`;

  // The brand starts from an empty dashboard and adds the three starter deals.
  const brand = await signIn(browser, brandEmail, "Brand", BRAND_WALLET);
  // Inside <main>: a hidden copy of streamed content can sit outside it while Next swaps it in.
  await expect(brand.locator("#main").getByTestId("brand-empty")).toBeVisible();
  await screenshots(brand, "brand-dashboard-empty");
  await brand.getByRole("button", { name: "Add the three starter deals" }).click();
  const cards = brand.locator("#main").getByTestId("deal-card");
  await expect(cards).toHaveCount(3);
  // They wait for funding: creators cannot see them yet.
  for (const title of [
    "Instagram Reel — Product Launch",
    "TikTok Clip — Brand Shoutout",
    "X Thread — Feature Highlight",
  ]) {
    const card = cards.filter({ hasText: title });
    await expect(card.getByTestId("deal-status")).toHaveText("Waiting for funding");
    await expect(card).toContainText("Not visible to creators until funded");
  }
  await expect(cards.filter({ hasText: "Instagram Reel" })).toContainText("0 of 2 paid");
  await screenshots(brand, "brand-dashboard");

  // The brand funds the TikTok deal's escrow (100 USDC) from its wallet.
  await cards
    .filter({ hasText: "TikTok Clip" })
    .getByRole("link", { name: "TikTok Clip — Brand Shoutout" })
    .click();
  await fundInUi(brand, BRAND_WALLET, "100.00 USDC");
  await brand.goto("/brand");
  await expect(cards.filter({ hasText: "TikTok Clip" }).getByTestId("deal-status")).toHaveText(
    "Open",
  );
  await expect(cards.filter({ hasText: "TikTok Clip" })).toContainText(
    "Open — waiting for a creator",
  );

  // The creator sees the funded one under open deals, with the wallet panel first: no wallet yet.
  const creator = await signIn(browser, creatorEmail, "Creator", WALLET);
  const open = creator.getByTestId("open-deal").filter({ hasText: brandEmail });
  await expect(open).toHaveCount(1);
  const walletPanel = creator.getByTestId("wallet-panel");
  await expect(walletPanel.getByTestId("wallet-unlinked")).toBeVisible();
  await screenshots(creator, "creator-dashboard-open-deals");

  // Payouts need a proven wallet: connect the test wallet and link it by signing.
  await walletPanel.getByRole("button", { name: "Connect test wallet" }).click();
  await expect(walletPanel.getByTestId("wallet-connected")).toContainText(SHORT);
  await walletPanel.getByRole("button", { name: "Link this wallet" }).click();
  await expect(walletPanel.getByTestId("wallet-linked")).toBeVisible();
  const balanceBefore = usdc(await walletPanel.getByTestId("usdc-balance").textContent());

  // …and takes the TikTok deal.
  await open
    .filter({ hasText: "TikTok Clip — Brand Shoutout" })
    .getByRole("link", { name: "View & accept" })
    .click();
  await expect(creator.getByTestId("accept-panel")).toBeVisible();
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");
  const dealId = creator.url().split("/deals/")[1] ?? "";
  await expect(creator.getByTestId("wallet-missing")).toHaveCount(0);
  await expect(creator.getByTestId("deal-header")).toContainText(SHORT);

  // Publish on the sandbox platform, then submit the post: every required tag is in its
  // caption, but it is not on TikTok, so the offline rubric scores it 90 % (and pays 90 of
  // 100 USDC). The verifier reads the published caption, not the form's text. First the
  // creator pre-checks a post that lacks #ad: the check names it, and nothing is submitted.
  const shoutoutHandle = `shoutout${Date.now()}`;
  const draftUrl = await publishOnSandbox(
    creator,
    shoutoutHandle,
    "Honest shoutout: I get paid for every post with Milestone. #MilestonePartner @milestone.app",
  );
  const form = creator.getByTestId("deliverable-form");
  await form.getByLabel("Post URL").fill("not a url");
  await form.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(form.getByText("The URL must be an http(s) URL")).toBeVisible();
  await form.getByLabel("Post URL").fill(draftUrl);
  await form.getByTestId("precheck-button").click();
  const precheck = form.getByTestId("precheck");
  await expect(precheck).toContainText("Not ready yet");
  // Without #ad the post is not disclosed either (the deal's disclosure rule, on by default).
  await expect(precheck.locator(".chip.missing")).toHaveText([
    "hashtag #ad",
    "Disclosure: add #ad (or #sponsored, #paidpartnership) within the first 125 characters",
  ]);
  await expect(precheck).toContainText("nothing was submitted or stored");
  await screenshots(creator, "deal-creator-precheck");
  const postUrl = await publishOnSandbox(
    creator,
    shoutoutHandle,
    "Honest shoutout: I get paid for every post with Milestone. #MilestonePartner #ad @milestone.app",
  );
  // Publishing took the creator to the sandbox and back: the form starts afresh.
  await form.getByLabel("Post URL").fill(postUrl);
  await form.getByTestId("precheck-button").click();
  await expect(precheck).toContainText("Ready: every required item is in the post");
  await expect(precheck).toContainText("−10 %: posted on the sandbox, not on TikTok");
  await form
    .getByLabel(/Post text/)
    .fill(
      "Honest shoutout: I get paid for every post with Milestone. #MilestonePartner #ad @milestone.app",
    );
  await form.getByLabel(/Note to the brand/).fill("Published on the sandbox.");
  await form.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");
  await expect(creator.getByText("waiting for the brand's review")).toBeVisible();
  await screenshots(creator, "deal-creator-submitted");

  // The brand sees it on the dashboard and on the deal page.
  await brand.goto("/brand");
  const tiktok = brand.locator("#main").getByTestId("deal-card").filter({ hasText: "TikTok Clip" });
  await expect(tiktok).toContainText(creatorEmail);
  await tiktok.getByRole("link", { name: "Review" }).click();
  await expect(brand).toHaveURL(new RegExp(`/deals/${dealId}$`));
  await expect(brand.getByTestId("deliverable")).toContainText(postUrl);
  await expect(brand.getByTestId("deal-header")).toContainText(creatorEmail);

  // Verify shows the verdict; Settle runs verify → gate → pay → confirmed. The shoutout is
  // rules only (no judgement-only criteria), so the rule check is sure of its verdict.
  await brand.getByRole("button", { name: "Verify" }).click();
  await expect(brand.getByTestId("verdict-approved")).toHaveText("Approved");
  await expect(brand.getByTestId("verdict-score")).toHaveText("Score 90%");
  // It names who judged and says why 10 % is off, in one line.
  await expect(brand.getByTestId("verdict-verifier")).toHaveText("Rule check");
  await expect(brand.getByTestId("verdict-deductions")).toContainText(
    "−10 %: posted on the sandbox, not on TikTok",
  );
  await expect(brand.getByTestId("verdict-coverage")).toContainText(
    "Checked on the post by the service",
  );
  await expect(brand.getByTestId("verdict-confidence")).toContainText(
    "Confidence 100%: sure enough to settle without a person.",
  );
  await expect(brand.getByTestId("gate-preview")).toContainText("Settling pays 90.00 USDC");
  await screenshots(brand, "deal-brand-review");
  await brand.getByRole("button", { name: "Settle", exact: true }).click();
  const confirmRelease = brand.getByTestId("settle-confirm");
  await expect(confirmRelease).toContainText("90.00 USDC");
  await expect(confirmRelease).toContainText("10.00 USDC");
  await confirmRelease.getByRole("button", { name: "Confirm and release" }).click();
  const steps = brand.getByTestId("settle-steps");
  await expect(steps.getByTestId("settle-confirmed")).toContainText(
    "Confirmed — 90.00 USDC paid to the creator, 10.00 USDC returned to you",
  );
  await expect(steps).toContainText("Gate passed");
  const txLink = steps.getByRole("link", { name: "View transaction" });
  await expect(txLink).toHaveAttribute("href", /^\/explorer\/tx\/0x[0-9a-f]{64}$/);
  await expect(brand.getByTestId("milestone-status")).toHaveText("Paid");
  await expect(brand.getByTestId("deal-paid")).toHaveText("90.00 USDC");
  await screenshots(brand, "deal-brand");

  // The payout is floor(amount × score) in USDC base units, confirmed, to the linked wallet.
  const res = await brand.request.get(`/api/deals/${dealId}`);
  const { deal } = (await res.json()) as {
    deal: {
      paid: string;
      status: string;
      milestones: Array<{
        amount: number;
        status: string;
        verdict: { score: number };
        settlement: { amount: string; status: string; recipient: string; txHash: string };
      }>;
    };
  };
  const [milestone] = deal.milestones;
  expect(milestone?.status).toBe("paid");
  const amountUnits = BigInt(Math.round((milestone?.amount ?? 0) * 1e6));
  const scoreBps = BigInt(Math.round((milestone?.verdict.score ?? 0) * 1e4));
  const expected = (amountUnits * scoreBps) / 10_000n;
  expect(milestone?.settlement).toMatchObject({
    amount: `${expected / 1_000_000n}.${(expected % 1_000_000n).toString().padStart(6, "0")}`,
    status: "confirmed",
    recipient: WALLET,
  });
  expect(milestone?.settlement.amount).toBe("90.000000");
  expect(deal.paid).toBe("90.000000");

  // On-chain: the reputation registry counts this settlement for the creator's wallet. It is
  // recorded right after the settle answer (a queue, not part of the payment): wait for it.
  await expect
    .poll(async () => (await creator.request.get(`/api/reputation/${WALLET}`)).json())
    .toMatchObject({ count: 1, score: 0.9 });

  // The creator's open deal page polls and shows the payout without a reload.
  const paidBanner = creator.getByTestId("paid-banner");
  await expect(paidBanner).toContainText("You were paid 90.00 USDC");
  await expect(paidBanner.getByTestId("reputation-badge")).toHaveText("★ 90% · 1 milestone");
  await expect(paidBanner.getByRole("link", { name: "View transaction" })).toHaveAttribute(
    "href",
    `/explorer/tx/${milestone?.settlement.txHash}`,
  );
  await screenshots(creator, "deal-creator");

  // The dashboard: the deal is paid, none of the brand's deals is open any more (the other
  // two are unfunded), and the wallet's on-chain balance went up by exactly the payout.
  await creator.goto("/creator");
  // Inside <main>: a hidden streamed copy of the list can sit outside it while Next swaps it in.
  await expect(
    creator.locator("#main").getByTestId("my-deal").filter({ hasText: "TikTok Clip" }),
  ).toContainText("Paid 90.00 USDC");
  await expect(creator.getByTestId("open-deal").filter({ hasText: brandEmail })).toHaveCount(0);
  await expect
    .poll(async () => usdc(await walletPanel.getByTestId("usdc-balance").textContent()))
    .toBe(balanceBefore + 90_000_000n);
  await screenshots(creator, "creator-dashboard");

  // The transaction page shows the USDC transfer to the creator's wallet.
  await paidTx(creator, milestone?.settlement.txHash ?? "");
});

/** "1,090.5 USDC" → base units. */
function usdc(text: string | null): bigint {
  const match = /^([\d,]+)\.(\d+) USDC$/.exec(text?.trim() ?? "");
  if (!match) throw new Error(`not a USDC amount: ${text}`);
  const [, whole = "0", frac = ""] = match;
  return BigInt(whole.replaceAll(",", "")) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
}

/** The escrow release: 90.00 USDC to the creator's wallet and the 10.00 USDC rest to the brand's. */
async function paidTx(page: Page, txHash: string) {
  await page.goto(`/explorer/tx/${txHash}`);
  await expect(page.getByTestId("tx-status")).toHaveText("Success");
  const transfer = page.getByTestId("event-transfer");
  await expect(transfer).toHaveCount(2);
  await expect(transfer.filter({ hasText: SHORT })).toContainText("90.00 USDC");
  await expect(transfer.filter({ hasText: short(BRAND_WALLET) })).toContainText("10.00 USDC");
}

test("a creator switches to brand in one click and creates a deal; field errors land under their inputs", async ({
  browser,
}) => {
  // Signed out, the page says what to do instead of failing.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto("/brand/deals/new");
  const prompt = visitor.getByTestId("sign-in-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole("link", { name: "Sign in" })).toHaveAttribute(
    "href",
    "/sign-in?next=%2Fbrand%2Fdeals%2Fnew",
  );

  const page = await signIn(browser, `switch-${Date.now()}@example.test`, "Creator");
  await page.goto("/brand/deals/new");
  const note = page.locator("#main").getByTestId("wrong-role");
  await expect(note).toContainText("You are signed in as a creator");
  await note.getByRole("button", { name: "Switch to brand" }).click();
  await expect(page.getByRole("heading", { name: "Create a deal" })).toBeVisible();

  // Submitting blank shows the API's messages next to the inputs they belong to.
  await page.getByRole("button", { name: "Create deal" }).click();
  await expect(page.getByText("Title must be at least 3 characters")).toBeVisible();
  const first = page.getByTestId("milestone-editor-0");
  await expect(first.getByText("Title is required")).toBeVisible();
  await expect(first.getByText("Amount must be a number of USDC")).toBeVisible();

  await page.getByLabel("Title", { exact: true }).first().fill("YouTube review — Spring drop");
  await page.getByLabel("Platform").selectOption("youtube");
  await first.getByLabel("Title").fill("Unboxing video");
  await first.getByLabel("Amount (USDC)").fill("150");
  await first.getByLabel("Hashtags").fill("SpringDrop ad ");
  await first.getByLabel("Mentions").fill("@brand");
  await first.getByLabel("Mentions").press("Enter");
  await first.getByLabel(/Criteria/).fill("Shows the product unboxed\nMentions the price");
  await page.getByRole("button", { name: "+ Add a milestone" }).click();
  const second = page.getByTestId("milestone-editor-1");
  await second.getByLabel("Title").fill("Follow-up short");
  await second.getByLabel(/Criteria/).fill("Points viewers to the unboxing video");
  await second.getByLabel("Amount (USDC)").fill("0.0000001");
  await expect(page.getByTestId("budget")).toHaveText("150.00 USDC");
  await page.getByRole("button", { name: "Create deal" }).click();
  await expect(second.getByText(/Amount must/)).toBeVisible();
  await second.getByLabel("Amount (USDC)").fill("49.5");
  await expect(page.getByTestId("budget")).toHaveText("199.50 USDC");
  await screenshots(page, "create-deal");
  await page.getByRole("button", { name: "Create deal" }).click();

  await expect(page).toHaveURL(/\/deals\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "YouTube review — Spring drop" })).toBeVisible();
  const header = page.getByTestId("deal-header");
  await expect(header).toContainText("199.50 USDC");
  await expect(header.getByTestId("deal-status")).toHaveText("Waiting for funding");
  await expect(header).toContainText("Not visible to creators until funded");
  await expect(page.getByTestId("funding-panel").getByTestId("funding-total")).toHaveText(
    "199.50 USDC",
  );
  await expect(page.getByTestId("milestone").first()).toContainText("#SpringDrop");
  await expect(page.getByTestId("milestone").first()).toContainText("@brand");

  // An unfunded deal is cancelled in one click (after confirming); no money moves.
  const cancel = page.getByTestId("cancel-deal");
  await cancel.getByRole("button", { name: "Cancel this deal" }).click();
  await expect(cancel).toContainText("Nothing has been funded, so no money moves");
  await cancel.getByRole("button", { name: "Yes, cancel the deal" }).click();
  await expect(header.getByTestId("deal-status")).toHaveText("Cancelled");
  await expect(page.getByTestId("funding-panel")).toHaveCount(0);
  await expect(page.getByTestId("cancel-deal")).toHaveCount(0);
});

test("a deliverable that misses a requirement is rejected at the gate and the creator resubmits", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const brandEmail = `brand-r-${stamp}@example.test`;
  const brand = await signIn(browser, brandEmail, "Brand", BRAND_WALLET);
  await brand.getByRole("button", { name: "Add the three starter deals" }).click();
  await expect(brand.locator("#main").getByTestId("deal-card")).toHaveCount(3);
  await brand.getByRole("link", { name: "X Thread — Feature Highlight" }).click();
  await fundInUi(brand, BRAND_WALLET, "100.00 USDC");

  const creator = await signIn(
    browser,
    `creator-r-${stamp}@example.test`,
    "Creator",
    CREATOR_WALLET_2,
  );
  await creator
    .getByTestId("open-deal")
    .filter({ hasText: brandEmail })
    .filter({ hasText: "X Thread — Feature Highlight" })
    .getByRole("link", { name: "View & accept" })
    .click();
  await expect(creator).toHaveURL(/\/deals\/[0-9a-f-]{36}$/);
  const dealUrl = creator.url();
  // Without a linked wallet the creator cannot take it: the escrow records the payout address.
  await expect(creator.getByTestId("accept-wallet-required")).toBeVisible();
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  const needWallet = creator.getByTestId("accept-wallet-required");
  await expect(needWallet).toHaveAttribute("role", "alert");
  await expect(needWallet).toContainText("Link a wallet first");
  await needWallet.getByRole("link", { name: "Link a wallet" }).click();
  await expect(creator).toHaveURL(/\/wallet$/);
  const walletPanel = creator.getByTestId("wallet-panel");
  await connectTestWallet(walletPanel, CREATOR_WALLET_2);
  await walletPanel.getByRole("button", { name: "Link this wallet" }).click();
  await expect(walletPanel.getByTestId("wallet-linked")).toBeVisible();
  await creator.goto(dealUrl);
  await expect(creator.getByTestId("accept-wallet-required")).toHaveCount(0);
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");
  await expect(creator.getByTestId("wallet-missing")).toHaveCount(0);
  const handle = `thread${stamp}`;
  const firstPost = await publishOnSandbox(
    creator,
    handle,
    "How milestone payouts work, in plain words: @milestone_app https://milestone.example/features",
  );
  const form = creator.getByTestId("deliverable-form");
  await form.getByLabel("Post URL").fill(firstPost);
  await form
    .getByLabel(/Post text/)
    .fill(
      "How milestone payouts work, in plain words: @milestone_app https://milestone.example/features",
    );
  await form.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");

  // The brand settles straight away (confirming first: the verdict is not known yet); it
  // fails the gate, so nothing is paid.
  await brand.goto(creator.url());
  await brand.getByRole("button", { name: "Settle", exact: true }).click();
  const confirmRelease = brand.getByTestId("settle-confirm");
  await expect(confirmRelease).toContainText("The verifier checks the deliverable first");
  await confirmRelease.getByRole("button", { name: "Confirm and release" }).click();
  const steps = brand.getByTestId("settle-steps");
  await expect(steps).toContainText(
    "Gate failed: the verifier did not approve it — missing hashtag #BuildInPublic",
  );
  await expect(steps).toContainText("Rejected — nothing was paid");
  await expect(brand.getByTestId("milestone-status")).toHaveText("Rejected");
  await screenshots(brand, "deal-brand-rejected");

  // The creator's page picks the verdict up by itself and offers the resubmission.
  await expect(creator.getByTestId("milestone-status")).toHaveText("Rejected");
  const again = creator.getByTestId("deliverable-form");
  await expect(again.getByRole("heading", { name: "Resubmit your deliverable" })).toBeVisible();
  // The starter deal has the disclosure rule on (every new deal does): the post lacks it too.
  await expect(again.locator(".chip.missing")).toHaveText([
    "hashtag #BuildInPublic",
    "Disclosure: add #ad (or #sponsored, #paidpartnership) within the first 125 characters",
  ]);
  await expect(again.getByLabel("Post URL")).toHaveValue(firstPost);
  await screenshots(creator, "deal-creator-rejected");
  // Editing the text alone would change nothing: the creator publishes a corrected post,
  // with the hashtag and #ad up front.
  const fixedPost = await publishOnSandbox(
    creator,
    handle,
    "#ad How milestone payouts work, in plain words: @milestone_app https://milestone.example/features #BuildInPublic",
  );
  await again.getByLabel("Post URL").fill(fixedPost);
  await again
    .getByLabel(/Post text/)
    .fill(
      "#ad How milestone payouts work, in plain words: @milestone_app https://milestone.example/features #BuildInPublic",
    );
  await again.getByRole("button", { name: "Resubmit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");
  await expect(creator.getByTestId("deliverable")).toContainText("Revision 2");

  // The brand asks for a change with a message instead of judging it: nothing is paid or
  // rejected, the creator's open page picks the message up by itself (shown as text, markup
  // and all), and the creator sends the next version, which is reviewed afresh.
  const request = "Please pin the thread to your profile <b>today</b>.";
  await brand.reload();
  await brand.getByTestId("request-changes-open").click();
  const ask = brand.getByTestId("request-changes-form");
  await ask.getByLabel("What should change (the creator sees it)").fill(request);
  expect(await axeProblems(brand)).toEqual([]);
  await ask.getByTestId("request-changes-review").click();
  const confirmAsk = brand.getByTestId("request-changes-confirm");
  await expect(confirmAsk).toContainText("Nothing moves: 100.00 USDC stays in the escrow");
  await confirmAsk.getByRole("button", { name: "Send it back" }).click();
  await expect(brand.getByTestId("milestone-status")).toHaveText("Changes requested");
  await expect(brand.getByTestId("change-request")).toContainText("You asked for changes");
  await expect(brand.getByTestId("settle-panel")).toHaveCount(0);
  await expect(
    brand.getByTestId("timeline-item").filter({ hasText: "asked for changes" }),
  ).toHaveCount(1);
  await screenshots(brand, "deal-brand-changes-requested");
  await expect(creator.getByTestId("milestone-status")).toHaveText("Changes requested");
  await expect(creator.getByTestId("change-request-message")).toHaveText(request);
  await expect(
    creator.getByTestId("timeline-item").filter({ hasText: "asked for changes" }),
  ).toContainText(request);
  await screenshots(creator, "deal-creator-changes-requested");
  const third = creator.getByTestId("deliverable-form");
  await expect(third.getByLabel("Post URL")).toHaveValue(fixedPost);
  await third.getByRole("button", { name: "Resubmit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");
  await expect(creator.getByTestId("deliverable")).toContainText("Revision 3");
  await expect(creator.getByTestId("change-request")).toHaveCount(0);

  // The creator tells the brand in the deal's thread; the brand sees it unread (as text, markup
  // and all) until the newest message has been on its screen.
  const note = "Pinned it <script>alert(1)</script> — thanks!";
  const creatorThread = creator.getByTestId("messages");
  await creatorThread.getByLabel(/^Message to /).fill(note);
  await creatorThread.getByRole("button", { name: "Send message" }).click();
  await expect(creatorThread.getByTestId("message")).toHaveText([/Pinned it/]);
  await expect(creatorThread.getByTestId("message-body")).toHaveValue("");
  // A fresh visit (a reload would restore the scroll position): the thread is below the fold.
  await brand.goto(brand.url());
  const brandThread = brand.getByTestId("messages");
  await expect(brandThread.getByTestId("messages-unread")).toHaveText("1 unread");
  await expect(brandThread.getByTestId("message").locator("p")).toHaveText(note);
  await brandThread.getByTestId("message").scrollIntoViewIfNeeded();
  await expect(brandThread.getByTestId("messages-unread")).toHaveCount(0);
  expect(await axeProblems(brand)).toEqual([]);

  // Every rule holds now, but the thread's criteria need judgement the rule check cannot
  // make: it is not sure enough to settle on its own, so the brand decides and pays once.
  await brand.reload();
  await brand.getByRole("button", { name: "Verify" }).click();
  await expect(brand.getByTestId("verdict-verifier")).toHaveText("Rule check");
  await expect(brand.getByTestId("verdict-unchecked")).toContainText("Not checked by anyone yet");
  await expect(brand.getByTestId("verdict-confidence")).toContainText("Confidence 50%");
  await expect(brand.getByTestId("needs-decision")).toContainText(
    "The verifier (Rule check) is 50% sure of its verdict, below the 90% it needs to settle on its own",
  );
  await expect(brand.getByRole("button", { name: "Settle", exact: true })).toHaveCount(0);
  const decision = brand.getByTestId("decision-form");
  await expect(decision.getByTestId("decision-percent")).toHaveValue("90");
  await screenshots(brand, "deal-brand-needs-decision");
  await decision.getByTestId("decision-reason").fill("Read the thread: five posts, clear.");
  await decision.getByTestId("decision-review").click();
  const confirmPay = brand.getByTestId("decision-confirm");
  await expect(confirmPay).toContainText("90.00 USDC");
  await confirmPay.getByRole("button", { name: "Confirm and pay" }).click();
  await expect(brand.getByTestId("milestone-status")).toHaveText("Paid");
  await expect(brand.getByTestId("decision")).toContainText("decided to pay at 90%");
  await expect(creator.getByTestId("milestone-status")).toHaveText("Paid");
});
