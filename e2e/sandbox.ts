import { expect, type Page } from "@playwright/test";

// Publishing on the built-in sandbox platform, as a creator does before submitting a
// deliverable in the embedded setup: the verifier reads the published post, not the form.
// A post counts only once its handle is verified: the creator places the handle's one-time
// code (shown on /profile) in a sandbox post and asks for the check there.

/** Publishes `caption` as `handle` on /social; returns the post URL (stays on /social). */
async function publish(page: Page, handle: string, caption: string): Promise<string> {
  await page.goto("/social");
  const form = page.getByTestId("sandbox-publish");
  await expect(page.getByTestId("sandbox-posts")).toHaveAttribute("data-loaded", "true");
  const handleInput = form.getByLabel("Handle");
  if (await handleInput.isEditable()) await handleInput.fill(handle);
  await form.getByLabel("Caption").fill(caption);
  await form.getByRole("button", { name: "Publish" }).click();
  const link = page.getByTestId("sandbox-post-url");
  await expect(link).toBeVisible();
  const url = (await link.textContent())?.trim() ?? "";
  expect(url).toMatch(/\/social\/p\/[0-9a-f-]{36}$/);
  return url;
}

/**
 * Verifies the creator's sandbox handle the way a creator does, on /profile: declares it if
 * it is not yet, publishes a sandbox post with its code, pastes the post's URL and checks.
 * Does nothing when it is verified already; a creator who already publishes as another
 * sandbox handle has that one verified. Comes back to the page it started on.
 */
export async function verifySandboxHandle(page: Page, handle: string): Promise<void> {
  const back = page.url();
  await page.goto("/profile");
  const panel = page.getByTestId("handles-panel");
  await expect(panel).toHaveAttribute("data-loaded", "true");
  const row = panel.locator('[data-testid="handle-row"][data-platform="sandbox"]');
  if ((await row.count()) === 0) {
    await panel.getByLabel("Platform").selectOption("sandbox");
    await panel.getByLabel("Handle", { exact: true }).fill(handle);
    await panel.getByRole("button", { name: "Save handle" }).click();
    await expect(row).toHaveCount(1);
  }
  if ((await row.getAttribute("data-verified")) === "true") return void (await page.goto(back));
  // The sandbox publishes as the declared handle whatever `handle` says: that one is proved.
  const declared = (await row.getAttribute("data-handle")) ?? handle;
  const renew = row.getByRole("button", { name: "Get a new code" });
  if (await renew.isVisible()) await renew.click();
  const code = ((await row.getByTestId("handle-code").textContent()) ?? "").trim();
  expect(code).toMatch(/^milestone-verify-[a-z0-9]{8}$/);

  const proof = await publish(page, declared, `Verifying my handle for Milestone: ${code}`);
  await page.goto("/profile");
  await expect(panel).toHaveAttribute("data-loaded", "true");
  await row.getByLabel("Post URL").fill(proof);
  await row.getByRole("button", { name: "Check now" }).click();
  await expect(row.getByTestId("handle-status")).toHaveText("Verified");
  await expect(row).toHaveAttribute("data-verified", "true");
  await page.goto(back);
}

/**
 * Publishes `caption` as `handle` (the creator's first post claims it); returns the post URL
 * and comes back. The handle is verified first (verifySandboxHandle), as a creator who is to
 * be paid for the post has done; `verify: false` publishes with the handle only declared.
 */
export async function publishOnSandbox(
  page: Page,
  handle: string,
  caption: string,
  opts: { verify?: boolean } = {},
): Promise<string> {
  const back = page.url();
  if (opts.verify !== false) await verifySandboxHandle(page, handle);
  const url = await publish(page, handle, caption);
  await page.goto(back);
  return url;
}
