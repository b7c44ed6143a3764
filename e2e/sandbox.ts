import { expect, type Page } from "@playwright/test";

// Publishing on the built-in sandbox platform, as a creator does before submitting a
// deliverable in the embedded setup: the verifier reads the published post, not the form.

/** Publishes `caption` as `handle` (the creator's first post claims it); returns the post URL and comes back. */
export async function publishOnSandbox(
  page: Page,
  handle: string,
  caption: string,
): Promise<string> {
  const back = page.url();
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
  await page.goto(back);
  return url;
}
