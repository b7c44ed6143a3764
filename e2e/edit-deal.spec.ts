import { expect, test } from "@playwright/test";
import { api, axeProblems, devAccount, fundGaslessly, screenshots, signIn } from "./journey";

// Editing a deal nobody has taken, in the browser: the brand creates a deal, opens it, edits
// it in the create form (title, an amount, one more milestone), confirms the listed changes
// and sees them on the deal page; after funding, the form shows the amounts read-only with
// the reason (the escrow holds them) and only the rest changes. Dev account 15 funds it
// (gaslessly: anvil unlocks only accounts 0–9, so the test signs the authorization); 14 is
// reserved for this file too.

const BRAND = devAccount(15);

const dealBody = {
  title: "Autumn teaser",
  description: "One short post",
  platform: "instagram",
  minScore: 0.5,
  milestones: [
    {
      title: "Teaser post",
      amount: 40,
      requirements: { hashtags: ["autumn"], criteria: ["Shows the product"] },
    },
  ],
};

test("the brand edits an unfunded deal and sees the change", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signIn(browser, `edit-brand-${Date.now()}@example.test`, "Brand");
  const { deal } = await api<{ deal: { id: string } }>(page, "POST", "/api/deals", dealBody);

  // Another brand's edit page for this deal is a real 404 status, not a streamed one.
  const other = await signIn(browser, `edit-other-${Date.now()}@example.test`, "Brand");
  expect((await other.request.get(`/deals/${deal.id}/edit`)).status()).toBe(404);
  await other.context().close();

  await page.goto(`/deals/${deal.id}`);
  const header = page.getByTestId("deal-header");
  await expect(header.getByTestId("deal-status")).toHaveText("Waiting for funding");
  await header.getByRole("link", { name: "Edit deal" }).click();

  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}/edit$`));
  const form = page.getByTestId("edit-deal-form");
  await expect(form.getByRole("heading", { name: "Edit the deal" })).toBeVisible();
  // The form starts from the deal as it is.
  await expect(form.getByLabel("Title", { exact: true }).first()).toHaveValue("Autumn teaser");
  await expect(form.getByLabel("Minimum score (%)")).toHaveValue("50");
  const first = page.getByTestId("milestone-editor-0");
  await expect(first.getByLabel("Amount (USDC)")).toHaveValue("40");
  await expect(first.getByLabel(/Criteria/)).toHaveValue("Shows the product");
  await expect(page.getByTestId("locked-terms")).toHaveCount(0);

  // Nothing changed yet: saving says so.
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(form.getByRole("alert")).toHaveText(
    "Nothing has changed yet: edit a field, then save.",
  );

  // Plain-words validation, as in the create form.
  await form.getByLabel("Minimum score (%)").fill("150");
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(form.getByText("Minimum score must be between 0 % and 100 %.")).toBeVisible();
  await form.getByLabel("Minimum score (%)").fill("70");

  await form.getByLabel("Title", { exact: true }).first().fill("Autumn launch");
  await first.getByLabel("Amount (USDC)").fill("45");
  await page.getByRole("button", { name: "+ Add a milestone" }).click();
  const second = page.getByTestId("milestone-editor-1");
  await second.getByLabel("Title").fill("Story");
  await second.getByLabel("Amount (USDC)").fill("15");
  await second.getByLabel(/Criteria/).fill("Links to the shop");
  await expect(page.getByTestId("budget")).toHaveText("60.00 USDC");
  // The deadline starts at the deal's (the 30-day default) and moves to 20 days from now.
  const day = (offsetDays: number) =>
    page.evaluate((d) => {
      const t = new Date(Date.now() + d * 86_400_000);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
    }, offsetDays);
  const deadline = form.getByTestId("deal-deadline");
  const before = await deadline.inputValue();
  expect([await day(29), await day(30)]).toContain(before);
  const after = await day(20);
  await deadline.fill(after);

  // The changes are listed before anything is saved.
  await page.getByRole("button", { name: "Review changes" }).click();
  const confirm = page.getByTestId("edit-confirm");
  await expect(confirm).toContainText("Title: “Autumn teaser” → “Autumn launch”");
  await expect(confirm).toContainText("Minimum score: 50% → 70%");
  await expect(confirm).toContainText("Milestone 1 amount: 40.00 USDC → 45.00 USDC");
  await expect(confirm).toContainText("Milestone 2 added: “Story”, 15.00 USDC");
  await expect(confirm).toContainText("Budget: 40.00 USDC → 60.00 USDC");
  await expect(confirm).toContainText(`Deadline: ${before} → ${after}`);
  await expect(confirm.getByRole("heading", { name: "Save these changes?" })).toBeFocused();
  expect(await axeProblems(page)).toEqual([]);
  await screenshots(page, "edit-deal-confirm");
  await confirm.getByRole("button", { name: "Save changes" }).click();

  // Back on the deal page, with the change.
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  await expect(page.getByRole("heading", { name: "Autumn launch" })).toBeVisible();
  await expect(header.getByTestId("deal-budget")).toHaveText("60.00 USDC");
  await expect(page.getByTestId("milestone")).toHaveCount(2);
  await expect(page.getByTestId("funding-panel").getByTestId("funding-total")).toHaveText(
    "60.00 USDC",
  );
  await expect(page.getByTestId("timeline")).toContainText("edited the deal");
  await screenshots(page, "edit-deal-saved");
  // The escrow deadline the API now gives is the end of that day, where the brand is.
  const saved = await api<{ deal: { escrow: { deadline: string } } }>(
    page,
    "GET",
    `/api/deals/${deal.id}`,
  );
  expect(
    await page.evaluate((iso) => {
      const t = new Date(iso);
      return [t.getHours(), t.getMinutes(), t.getDate()];
    }, saved.deal.escrow.deadline),
  ).toEqual([23, 59, Number(after.slice(8, 10))]);
});

test("a funded deal shows its amounts locked and changes only the rest", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signIn(browser, `edit-funded-${Date.now()}@example.test`, "Brand");
  const { deal } = await api<{ deal: { id: string } }>(page, "POST", "/api/deals", dealBody);
  await fundGaslessly(page, deal.id, BRAND);
  await page.goto(`/deals/${deal.id}`);
  await expect(page.getByTestId("deal-status")).toHaveText("Open");

  await page.getByRole("link", { name: "Edit deal" }).click();
  const form = page.getByTestId("edit-deal-form");
  await expect(page.getByTestId("locked-terms")).toContainText(
    "cancel this deal and create a new one",
  );
  const first = page.getByTestId("milestone-editor-0");
  const amount = first.getByLabel("Amount (USDC)");
  await expect(amount).toHaveValue("40");
  await expect(amount).not.toBeEditable();
  await expect(first).toContainText("Locked: the escrow holds this amount.");
  await expect(page.getByRole("button", { name: "+ Add a milestone" })).toHaveCount(0);
  await expect(first.getByRole("button", { name: "Remove", exact: true })).toHaveCount(0);
  await expect(form.getByTestId("deal-deadline")).not.toBeEditable();
  await expect(form).toContainText("Locked: the escrow holds this deadline.");
  expect(await axeProblems(page)).toEqual([]);
  await screenshots(page, "edit-deal-funded");

  await first.getByLabel("Title").fill("Teaser reel");
  await form.getByLabel(/Description/).fill("One short reel");
  await page.getByRole("button", { name: "Review changes" }).click();
  const confirm = page.getByTestId("edit-confirm");
  await expect(confirm).toContainText("Milestone 1 title: “Teaser post” → “Teaser reel”");
  await expect(confirm).not.toContainText("Budget");
  await confirm.getByRole("button", { name: "Save changes" }).click();

  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  await expect(page.getByTestId("milestone").first()).toContainText("Teaser reel");
  await expect(page.getByTestId("deal-header")).toContainText("One short reel");
  await expect(page.getByTestId("deal-status")).toHaveText("Open");
});
