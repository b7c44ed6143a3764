import { expect, test } from "@playwright/test";
import { DEMO_ID_BUTTON, signInThroughDemoId } from "./journey";

// Sign-in journey on the embedded setup (dev identity provider): sign in as a creator,
// survive a reload, switch role, sign out.

test("a creator signs in, stays signed in across a reload, switches role and signs out", async ({
  page,
}) => {
  const email = `e2e-${Date.now()}@example.test`;
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/sign-in.png", fullPage: true });
  await signInThroughDemoId(page, "/sign-in", email, "Creator");

  await expect(page).toHaveURL(/\/creator$/);
  const menu = page.getByTestId("account-menu");
  await expect(menu.getByTestId("account-email")).toHaveText(email);
  await expect(menu.getByTestId("account-role")).toHaveText("Creator");
  await page.screenshot({ path: "e2e/screenshots/signed-in-creator.png" });

  const cookie = (await page.context().cookies()).find((c) => c.name === "milestone.session-token");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

  // The session is restored from the cookie on reload.
  await page.reload();
  await expect(menu.getByTestId("account-email")).toHaveText(email);
  await expect(menu.getByTestId("account-role")).toHaveText("Creator");

  await menu.getByRole("button", { name: "Switch to brand" }).click();
  await expect(menu.getByTestId("account-role")).toHaveText("Brand");
  await expect(page).toHaveURL(/\/brand$/);
  await page.reload();
  await expect(menu.getByTestId("account-role")).toHaveText("Brand");

  await menu.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(menu).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(menu).toHaveCount(0);
  expect((await page.request.get("/api/auth/me")).status()).toBe(401);
});

test("the sign-in hook reports the API's error code for a bad identity token", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: DEMO_ID_BUTTON })).toBeEnabled();
  const code = await page.evaluate(async () => {
    try {
      await window.milestoneSignIn?.("not-a-token");
      return "signed in";
    } catch (err) {
      return (err as { code?: string }).code;
    }
  });
  expect(code).toBe("invalid_token");
});

test("signing in never follows ?next= off the app's origin", async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? "http://127.0.0.1").origin;
  // The forms that got past the old check in Chromium, and their relatives (as sent on the wire).
  const hostile = [
    "/%5Cevil.example/x",
    "/%09/evil.example/x",
    "//evil.example/x",
    "/.//evil.example",
  ];
  for (const [i, next] of hostile.entries()) {
    await page.context().clearCookies();
    await signInThroughDemoId(
      page,
      `/sign-in?next=${next}`,
      `e2e-next-${i}-${Date.now()}@example.test`,
      "Creator",
    );
    await expect(page).toHaveURL(/\/creator$/);
    expect(new URL(page.url()).origin).toBe(origin);
  }
  // A same-origin path is still honoured.
  await page.context().clearCookies();
  await signInThroughDemoId(
    page,
    `/sign-in?next=${encodeURIComponent("/docs")}`,
    `e2e-next-ok-${Date.now()}@example.test`,
    "Creator",
  );
  await expect(page).toHaveURL(/\/docs$/);
});
