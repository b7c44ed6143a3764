import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { axeProblems, DEMO_ID_BUTTON, DESKTOP, PHONE, signIn } from "./journey";

// The app as people see it: every main page passes axe (no serious or critical
// violations) in light and dark mode, the dashboards arrive rendered on the server (their
// deal cards are in the first HTML response), unknown pages answer 404, the phone layout
// leaves room for the content, and screenshots of each page at desktop and 375 px width,
// light and dark, land in e2e/screenshots/pages-*.png for a person to look at.

/**
 * Axe in light and dark mode, and four screenshots: desktop and phone, light and dark.
 * The phone layout must not scroll sideways.
 */
async function checkPage(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(DESKTOP);
    expect(await axeProblems(page), `${name} (${scheme}, desktop)`).toEqual([]);
    await page.screenshot({ path: `e2e/screenshots/pages-${name}-${scheme}.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(PHONE.width);
    expect(await axeProblems(page), `${name} (${scheme}, 375 px)`).toEqual([]);
    await page.screenshot({
      path: `e2e/screenshots/pages-${name}-375-${scheme}.png`,
      fullPage: true,
    });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);
}

test("public pages: axe, screenshots, skip link and keyboard focus", async ({ page }) => {
  // Axe runs twice on each page (light and dark); on a busy 2-core machine the API
  // reference alone takes most of a minute.
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The first Tab lands on the skip link, which moves focus to the content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  // Focus on a control is visible: an outline is drawn.
  await page.keyboard.press("Tab");
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? getComputedStyle(el).outlineStyle : "none";
  });
  expect(outline).not.toBe("none");
  await checkPage(page, "home");

  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: DEMO_ID_BUTTON })).toBeVisible();
  await checkPage(page, "sign-in");

  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  await checkPage(page, "docs");

  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
  await checkPage(page, "not-found");
});

test("an unknown address and an unknown deal answer 404", async ({ request }) => {
  expect((await request.get("/no-such-page")).status()).toBe(404);
  expect((await request.get("/brand/no-such-page")).status()).toBe(404);
});

test("a deal that does not exist answers 404", async ({ request }) => {
  expect((await request.get(`/deals/${randomUUID()}`)).status()).toBe(404);
  // The edit page too: an unknown id and an id that is no UUID are a real 404 status.
  expect((await request.get(`/deals/${randomUUID()}/edit`)).status()).toBe(404);
  expect((await request.get("/deals/nope/edit")).status()).toBe(404);
});

test("brand pages: server-rendered deal cards, filters, create form, axe", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signIn(browser, `brand-${randomUUID()}@example.test`, "Brand", undefined, {
    viewport: DESKTOP,
  });
  await expect(page.locator("#main").getByTestId("brand-empty")).toBeVisible();
  await checkPage(page, "brand-empty");
  await page.getByRole("button", { name: "Add the three starter deals" }).click();
  await expect(page.locator("#main").getByTestId("deal-card")).toHaveCount(3);

  // The first HTML response already holds the cards: no client fetch is needed to see them.
  const html = await (await page.request.get("/brand")).text();
  expect(html).toContain('data-testid="deal-card"');
  expect(html).toContain("Instagram Reel — Product Launch");
  expect(html).toContain("TikTok Clip — Brand Shoutout");

  await page.reload();
  await expect(page.locator("#main").getByTestId("deal-card")).toHaveCount(3);
  await checkPage(page, "brand");

  // So does a deal's page: its title, milestones and funding panel come with the HTML.
  const dealHref = await page
    .locator("#main")
    .getByTestId("deal-card")
    .filter({ hasText: "TikTok Clip" })
    .getByRole("link")
    .first()
    .getAttribute("href");
  expect(dealHref).toMatch(/^\/deals\/[0-9a-f-]{36}$/);
  const dealHtml = await (await page.request.get(dealHref as string)).text();
  expect(dealHtml).toContain('data-testid="deal-page"');
  expect(dealHtml).toContain("TikTok Clip — Brand Shoutout");
  expect(dealHtml).toContain('data-testid="funding-panel"');

  // Search and platform filter narrow the list; clearing them brings every deal back.
  await page.getByLabel("Search").fill("tiktok");
  await expect(page.locator("#main").getByTestId("deal-card")).toHaveCount(1);
  await expect(page.locator("#main").getByTestId("deal-card")).toContainText("TikTok Clip");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.locator("#main").getByTestId("deal-card")).toHaveCount(3);
  await page.getByLabel("Platform").selectOption("x");
  await expect(page.locator("#main").getByTestId("deal-card")).toHaveCount(1);
  await expect(page.locator("#main").getByTestId("deal-card")).toContainText("X Thread");
  await page.getByRole("button", { name: "Clear filters" }).click();

  // The create form: minimum score as a percentage, plain messages, a requirement needed.
  await page.goto("/brand/deals/new");
  await expect(page.getByRole("heading", { name: "Create a deal" })).toBeVisible();
  await page.getByLabel("Minimum score (%)").fill("150");
  await page.getByRole("button", { name: "Create deal" }).click();
  await expect(page.getByText("Minimum score must be between 0 % and 100 %.")).toBeVisible();
  await expect(
    page.getByTestId("milestone-editor-0").getByText("Add at least one requirement"),
  ).toBeVisible();
  await checkPage(page, "create-deal");

  // On a phone the header and the sticky budget bar leave three quarters of the screen.
  await page.setViewportSize(PHONE);
  const header = await page.locator("header.header").boundingBox();
  const bar = await page.locator(".sticky-summary").boundingBox();
  expect((header?.height ?? 0) + (bar?.height ?? 0)).toBeLessThanOrEqual(PHONE.height / 4);

  // A deal page (behind the wallet layout) passes axe too.
  await page.setViewportSize(DESKTOP);
  await page.goto("/brand");
  await page.getByRole("link", { name: "Instagram Reel — Product Launch" }).click();
  await expect(page.getByTestId("deal-header")).toBeVisible();
  await checkPage(page, "deal-brand");

  await page.context().close();
});

test("creator pages: dashboard and wallet, axe", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signIn(browser, `creator-${randomUUID()}@example.test`, "Creator", undefined, {
    viewport: DESKTOP,
  });
  await expect(page.getByRole("heading", { name: "Your work" })).toBeVisible();
  await expect(page.getByTestId("wallet-panel")).toBeVisible();
  const html = await (await page.request.get("/creator")).text();
  expect(html).toContain("Open deals");
  expect(html).toContain("My deals");
  await checkPage(page, "creator");

  await page.goto("/wallet");
  await expect(page.getByTestId("wallet-panel")).toBeVisible();
  await checkPage(page, "wallet");

  // The brand dashboard for a creator: a one-click role switch, rendered on the server.
  await page.goto("/brand");
  // Scoped to the page's content: while Next swaps streamed content in, a hidden copy of
  // it can sit outside <main> for a moment.
  await expect(page.locator("#main").getByTestId("wrong-role")).toBeVisible();
  await checkPage(page, "wrong-role");
  await page.context().close();
});
