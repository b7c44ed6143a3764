import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { getAddress, parseUnits } from "viem";
import {
  api,
  axeProblems,
  devAccount,
  fundGaslessly,
  localChain,
  screenshots,
  signIn,
  signInWithEmbeddedWallet,
} from "./journey";
import { publishOnSandbox } from "./sandbox";

// Drafts before posting (issue 24, item 1), both parties in their own browser contexts: the
// creator uploads a draft (an image and a caption missing the required hashtag, which the
// check names at once), the brand asks for a change with a message, the creator sends a second
// draft, the brand approves it; then the creator posts a caption that differs from the approved
// draft and the verdict lists the difference; the brand sends it back, the creator fixes the
// post and is paid (the creator's on-chain balance rises by the settlement). Every step is on
// both timelines and in both inboxes. Creating and funding the deal goes through the API (not
// the point here), with the brand's dev wallet signing the gasless funding.

// Dev account 10 is this file's alone (journey.ts lists the others); it signs the gasless
// funding in the test. The creator has the demo provider's embedded wallet (no browser wallet).
const BRAND = devAccount(10);

// Both carry #ad: the deal's disclosure rule (on by default) is checked on drafts and posts.
const APPROVED = "Launch day! The Milestone app pays creators per milestone. #launch #ad";
const EDITED = "Launch day! Half price today only with code SAVE50. #launch #ad";

test("draft → change requested → second draft → approved; a post that differs is listed, fixed and paid", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const brand = await signIn(browser, `drafts-brand-${stamp}@example.test`, "Brand");
  const creator = await (await browser.newContext()).newPage();
  await signInWithEmbeddedWallet(creator, `drafts-creator-${stamp}@example.test`, "Creator");
  const { deal } = await api<{ deal: { id: string } }>(brand, "POST", "/api/deals", {
    title: "Instagram launch — drafts journey",
    platform: "instagram",
    milestones: [
      {
        title: "Launch post",
        amount: 40,
        requirements: { hashtags: ["#launch"], criteria: [] },
      },
    ],
  });
  await fundGaslessly(brand, deal.id, BRAND);

  // The creator (its embedded wallet linked at sign-in) takes the deal.
  await creator.goto(`/deals/${deal.id}`);
  await creator.getByRole("button", { name: "Accept this deal" }).click();
  await expect(creator.getByTestId("deal-status")).toHaveText("Active");

  // The first draft: an image, and a caption without #launch. The check says so at once.
  const drafts = creator.getByTestId("drafts");
  await expect(drafts.getByTestId("drafts-empty")).toBeVisible();
  const image = await sharp({
    create: { width: 320, height: 200, channels: 3, background: "#2a6" },
  })
    .jpeg()
    .withExifMerge({ IFD0: { Artist: "where-i-live" } })
    .toBuffer();
  const form = drafts.getByTestId("draft-form");
  await form
    .getByLabel("Caption")
    .fill("Launch day! The Milestone app pays creators per milestone.");
  await form.getByLabel(/Image or video/).setInputFiles({
    name: "launch.jpg",
    mimeType: "image/jpeg",
    buffer: image,
  });
  await form.getByTestId("send-draft").click();
  const first = drafts.getByTestId("draft").first();
  await expect(first).toHaveAttribute("data-revision", "1");
  await expect(first.getByTestId("draft-check")).toContainText("hashtag #launch");
  await expect(first.getByRole("img")).toBeVisible();
  expect(await axeProblems(creator)).toEqual([]);
  await screenshots(creator, "drafts-creator-first");

  // The brand sees it, with the image, and asks for a change.
  await brand.goto(`/deals/${deal.id}`);
  const brandDrafts = brand.getByTestId("drafts");
  const waiting = brandDrafts.getByTestId("draft").first();
  await expect(waiting.getByTestId("draft-status")).toHaveText("Waiting for the brand");
  await expect
    .poll(() => waiting.getByRole("img").evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(320);
  await waiting.getByLabel(/What should change/).fill("Please add #launch at the end.");
  await waiting.getByTestId("request-changes").click();
  await expect(waiting.getByTestId("confirm-request-changes")).toContainText(
    "Please add #launch at the end.",
  );
  await waiting.getByTestId("confirm-request-changes-button").click();
  await expect(waiting.getByTestId("draft-status")).toHaveText("Changes requested");

  // The creator reads the message and sends a second draft (the caption starts from the first).
  await creator.reload();
  await expect(drafts.getByTestId("draft-review-message")).toContainText(
    "Please add #launch at the end.",
  );
  await form.getByLabel("Caption").fill(APPROVED);
  await form.getByTestId("send-draft").click();
  const second = drafts.getByTestId("draft").first();
  await expect(second).toHaveAttribute("data-revision", "2");
  await expect(second.getByTestId("draft-check")).toContainText(
    "Every required hashtag, mention and link is in the caption.",
  );

  // The brand approves it, after a confirmation.
  await brand.reload();
  const latest = brandDrafts.getByTestId("draft").first();
  await expect(latest).toHaveAttribute("data-revision", "2");
  await latest.getByTestId("approve-draft").click();
  await expect(latest.getByTestId("confirm-approve-draft")).toContainText("Approve revision 2?");
  await latest.getByTestId("confirm-approve-draft-button").click();
  await expect(latest.getByTestId("draft-status")).toHaveText("Approved");
  expect(await axeProblems(brand)).toEqual([]);
  await screenshots(brand, "drafts-brand-approved");

  // The creator posts a caption that differs from the approved draft and submits it.
  const url = await publishOnSandbox(creator, `drafts${stamp}`, EDITED);
  await creator.goto(`/deals/${deal.id}`);
  const deliverable = creator.getByTestId("deliverable-form");
  await deliverable.getByLabel("Post URL").fill(url);
  await deliverable.getByLabel(/Post text/).fill(EDITED);
  await deliverable.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");

  // The brand verifies: the verdict lists the difference from the approved draft.
  await brand.reload();
  await brand.getByRole("button", { name: "Verify" }).click();
  const card = brand.getByTestId("milestone");
  await expect(card).toContainText("caption differs from the approved draft (revision 2)");
  await expect(card).toContainText(
    'approved draft text not in the post: "the milestone app pays creators per milestone."',
  );
  await screenshots(brand, "drafts-brand-difference");

  // The verdict does not pass the gate: the brand sends it back, and nothing moves.
  await brand.getByRole("button", { name: "Reject and ask to resubmit" }).click();
  await expect(card.getByTestId("milestone-status")).toHaveText("Rejected");

  // The creator fixes the post: publishes the approved caption and submits it again.
  const me = await api<{ user: { walletAddress: string } }>(creator, "GET", "/api/auth/me");
  const creatorWallet = getAddress(me.user.walletAddress);
  const { balance } = await localChain(brand);
  const before = await balance(creatorWallet);
  const fixed = await publishOnSandbox(creator, `drafts${stamp}`, APPROVED);
  await creator.goto(`/deals/${deal.id}`);
  await expect(creator.getByTestId("milestone-status")).toHaveText("Rejected");
  await deliverable.getByLabel("Post URL").fill(fixed);
  await deliverable.getByLabel(/Post text/).fill(APPROVED);
  await deliverable.getByRole("button", { name: "Submit deliverable" }).click();
  await expect(creator.getByTestId("milestone-status")).toHaveText("Submitted");

  // The brand verifies again: it matches the approved draft, passes, and is paid after a
  // confirmation that names the amounts.
  await brand.reload();
  await card.getByRole("button", { name: "Verify" }).click();
  await expect(card.getByTestId("gate-preview")).toContainText("Passes the gate");
  await expect(card).not.toContainText("caption differs from the approved draft");
  await card.getByRole("button", { name: "Settle", exact: true }).click();
  await expect(card.getByTestId("settle-confirm")).toContainText("To the creator");
  await card.getByRole("button", { name: "Confirm and release" }).click();
  await expect(card.getByTestId("milestone-status")).toHaveText("Paid", { timeout: 60_000 });

  // On-chain, the creator's wallet rose by exactly what the settlement says it paid.
  const { deal: paid } = await api<{
    deal: { milestones: Array<{ settlement: { amount: string; status: string } | null }> };
  }>(creator, "GET", `/api/deals/${deal.id}`);
  const settlement = paid.milestones[0]?.settlement;
  expect(settlement?.status).toBe("confirmed");
  const amount = parseUnits(settlement?.amount ?? "0", 6);
  expect(amount).toBeGreaterThan(0n);
  expect(await balance(creatorWallet)).toBe(before + amount);
  await creator.reload();
  await expect(creator.getByTestId("paid-banner")).toContainText("You were paid");
  expect(await axeProblems(creator)).toEqual([]);
  await screenshots(creator, "drafts-creator-paid");

  // Every step is on both timelines.
  for (const page of [brand, creator]) {
    await page.reload();
    const timeline = page.getByTestId("timeline");
    await expect(timeline.locator('[data-type="draft.submitted"]')).toHaveCount(2);
    await expect(timeline.locator('[data-type="draft.changes_requested"]')).toHaveCount(1);
    await expect(timeline.locator('[data-type="draft.approved"]')).toHaveCount(1);
    await expect(timeline.locator('[data-type="submitted"]')).toHaveCount(2);
    await expect(timeline.locator('[data-type="rejected"]')).toHaveCount(1);
    await expect(timeline.locator('[data-type="paid"]')).toHaveCount(1);
  }
  await expect(creator.getByTestId("timeline")).toContainText("asked for changes to the draft");
  await screenshots(creator, "drafts-creator-timeline");

  // And in both inboxes: each party is told what the other did.
  await brand.goto("/inbox");
  const brandInbox = brand.getByTestId("inbox-list");
  await expect(brandInbox).toContainText("sent a draft of milestone 'Launch post' (revision 2)");
  await expect(brandInbox).toContainText("sent a draft of milestone 'Launch post'");
  await creator.goto("/inbox");
  const creatorInbox = creator.getByTestId("inbox-list");
  await expect(creatorInbox).toContainText(
    "asked for changes to the draft of milestone 'Launch post'",
  );
  await expect(creatorInbox).toContainText("Please add #launch at the end.");
  await expect(creatorInbox).toContainText("approved the draft of milestone 'Launch post'");
  await expect(creatorInbox).toContainText("Milestone 'Launch post' was paid");
  expect(await axeProblems(creator)).toEqual([]);
  await screenshots(creator, "drafts-creator-inbox");
});
