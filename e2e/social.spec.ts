import { expect, test } from "@playwright/test";
import { publishOnSandbox } from "./sandbox";

// The sandbox platform of the embedded default: a creator publishes a post, its page and
// oEmbed show what the verifier will read, the handle lands on the profile, and a deleted
// post is gone from the oEmbed (so it can no longer be verified).

test("a creator publishes on the sandbox, sees the post and its handle, and deletes it", async ({
  browser,
}) => {
  const stamp = Date.now();
  const page = await (await browser.newContext()).newPage();
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(`social-${stamp}@example.test`);
  await page.getByLabel("Creator", { exact: true }).check();
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/creator$/);

  const handle = `social${stamp}`;
  const caption =
    "Launch day! #MilestoneLaunch #ad @milestone.app https://milestone.example/launch";
  const url = await publishOnSandbox(page, handle, caption);

  // The post page shows what was published.
  await page.goto(url);
  await expect(page.getByTestId("sandbox-post-page")).toContainText(`@${handle}`);
  await expect(page.getByTestId("sandbox-post-caption")).toHaveText(caption);

  // Its oEmbed is what the verifier reads (through the safe fetcher).
  const oembed = await page.request.get(`/api/social/oembed?url=${encodeURIComponent(url)}`);
  expect(oembed.status()).toBe(200);
  expect(await oembed.json()).toMatchObject({ author_name: handle, title: caption, type: "video" });

  // The first post made the handle the creator's sandbox handle; the studio keeps it fixed.
  await page.goto("/profile");
  await expect(page.getByTestId("handle-row")).toContainText(`@${handle}`);
  await page.goto("/social");
  await expect(page.getByTestId("sandbox-posts")).toHaveAttribute("data-loaded", "true");
  await expect(page.getByTestId("sandbox-publish").getByLabel("Handle")).toHaveValue(handle);
  await expect(page.getByTestId("sandbox-publish").getByLabel("Handle")).not.toBeEditable();

  // Deleting it: the page says so and the oEmbed no longer finds it.
  const post = page.getByTestId("sandbox-post").filter({ hasText: url });
  await post.getByRole("button", { name: "Delete" }).click();
  await expect(post).toHaveCount(0);
  await page.goto(url);
  await expect(page.getByTestId("sandbox-post-deleted")).toBeVisible();
  const gone = await page.request.get(`/api/social/oembed?url=${encodeURIComponent(url)}`);
  expect(gone.status()).toBe(404);
});
