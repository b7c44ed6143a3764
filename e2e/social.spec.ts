import { expect, test } from "@playwright/test";
import { signInThroughDemoId } from "./journey";
import { publishOnSandbox, verifySandboxHandle } from "./sandbox";

// The sandbox platform of the embedded default: a creator publishes a post, its page and
// oEmbed show what the verifier will read, the handle lands on the profile (not verified
// until a post of it carries its code and the creator checks it there), and a deleted post is
// gone from the oEmbed (so it can no longer be verified).

test("a creator publishes on the sandbox, sees the post and its handle, and deletes it", async ({
  browser,
}) => {
  const stamp = Date.now();
  const page = await (await browser.newContext()).newPage();
  await signInThroughDemoId(page, "/sign-in", `social-${stamp}@example.test`, "Creator");
  await expect(page).toHaveURL(/\/creator$/);

  const handle = `social${stamp}`;
  const caption =
    "Launch day! #MilestoneLaunch #ad @milestone.app https://milestone.example/launch";
  const url = await publishOnSandbox(page, handle, caption, { verify: false });

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
  const row = page.getByTestId("handle-row");
  await expect(row).toContainText(`@${handle}`);
  // Declared is not verified: the profile shows the code to place and the check.
  await expect(row.getByTestId("handle-status")).toHaveText("Not verified");
  await expect(row.getByTestId("handle-code")).toHaveText(/^milestone-verify-[a-z0-9]{8}$/);
  // A post without the code does not prove it: the check says why.
  await row.getByLabel("Post URL").fill(url);
  await row.getByRole("button", { name: "Check now" }).click();
  await expect(row.getByRole("alert")).toContainText("is not in that post");
  await expect(row.getByTestId("handle-status")).toHaveText("Not verified");
  // A post with it does (published on the sandbox, then checked on the profile).
  await verifySandboxHandle(page, handle);
  await expect(row.getByTestId("handle-status")).toHaveText("Verified");
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
