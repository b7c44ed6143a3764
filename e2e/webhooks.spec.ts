import { execFile } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { screenshots, signInOn } from "./journey";

// Webhook settings in the browser: a brand registers an endpoint (the secret is shown once),
// an event of theirs is delivered by the reconcile routine (the cron route) to a receiver in
// this test that verifies the signature with that secret, the delivery log shows it, resend
// sends it again with the same event id, and the endpoint can be disabled.

// Listed in FETCH_ALLOWED_HOSTS by playwright.config.ts (the app's port + 99).
const RECEIVER_PORT = Number(process.env.E2E_PORT ?? 3100) + 99;

type Got = { eventId: string; type: string; verified: boolean };
const got: Got[] = [];
let secret = "";
let server: Server;

function verify(raw: string, header: string | undefined): boolean {
  const fields = (header ?? "").split(",").map((p) => p.trim().split("="));
  const t = Number(fields.find(([k]) => k === "t")?.[1]);
  const v1 = fields.find(([k]) => k === "v1")?.[1] ?? "";
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex"));
  return v1.length === expected.length && timingSafeEqual(Buffer.from(v1), expected);
}

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = JSON.parse(raw);
      got.push({
        eventId: String(req.headers["milestone-event-id"]),
        type: body.type,
        verified: verify(raw, req.headers["milestone-signature"] as string),
      });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(RECEIVER_PORT, "127.0.0.1", resolve));
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * `npm run reconcile` beside the running app: it finds the app holding the embedded database
 * and asks it to reconcile through the cron route (with the embedded cron secret).
 */
async function runReconcile() {
  // Asynchronously: the receiver in this process must answer while the app delivers.
  await promisify(execFile)("npx", ["tsx", "scripts/reconcile.ts"], {
    env: { ...process.env, DATA_DIR: ".data/e2e", LOG_LEVEL: "warn" },
    timeout: 60_000,
  });
}

test("register an endpoint, receive a signed event, see it in the log, resend it, disable", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInOn(page, `brand-webhooks-${Date.now()}@example.test`, "Brand");
  // Reached from the header's Account menu, and from /settings (which links profile, keys,
  // webhooks).
  const accountPages = page.getByTestId("account-pages");
  await accountPages.getByText("Account", { exact: true }).click();
  await expect(accountPages.getByRole("link", { name: "Webhooks", exact: true })).toBeVisible();
  await screenshots(page, "account-menu-open");
  await accountPages.getByRole("link", { name: "API keys", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/keys$/);
  // Picking a page closes the menu.
  await expect(accountPages.getByRole("link", { name: "Webhooks", exact: true })).toBeHidden();
  await page.goto("/settings");
  const settings = page.getByRole("main");
  for (const name of ["Profile", "API keys", "Webhooks"])
    await expect(settings.getByRole("link", { name, exact: true })).toBeVisible();
  await settings.getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/webhooks$/);
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();

  // A private address is refused with the reason.
  await page.getByLabel("Endpoint URL").fill("https://10.0.0.5/hook");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "public addresses only" })).toBeVisible();

  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${RECEIVER_PORT}/hook`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const shown = page.getByTestId("webhook-secret");
  await expect(shown).toContainText("shown only now");
  secret = (await shown.locator("code").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_/);
  await shown.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  const card = page.getByTestId("webhook-endpoint");
  await expect(card).toContainText(`127.0.0.1:${RECEIVER_PORT}/hook`);
  await expect(card).toContainText("All events");

  // An event of the brand's: creating a deal. The outbox is drained by reconcile.
  const origin = new URL(page.url()).origin;
  const created = await page.request.post("/api/deals", {
    headers: { origin, "content-type": "application/json" },
    data: JSON.stringify({
      title: "Webhook journey",
      milestones: [{ title: "Post", amount: 5, requirements: { hashtags: ["#hook"] } }],
    }),
  });
  expect(created.status()).toBe(201);
  await runReconcile();
  await expect.poll(() => got.length).toBe(1);
  expect(got[0]).toMatchObject({ type: "created", verified: true });

  await card.getByRole("button", { name: "Deliveries" }).click();
  const log = card.getByRole("table");
  await expect(log).toContainText("delivered");
  await expect(log).toContainText("200");
  await screenshots(page, "webhooks");

  // Resend: sent again right after the answer, with the same event id.
  await log.getByRole("button", { name: /^Resend created event/ }).click();
  await expect(card).toContainText("queued again");
  await expect.poll(() => got.length).toBe(2);
  expect(got[1]?.eventId).toBe(got[0]?.eventId);
  expect(got[1]?.verified).toBe(true);

  // The payload view: the request body sent and the receiver's answer.
  const createdRow = log.getByRole("row").filter({ hasText: "created" }).first();
  await createdRow.getByText("Payload and response").click();
  await expect(createdRow.getByTestId("delivery-request")).toContainText('"type": "created"');
  await expect(createdRow.getByText("Response: HTTP 200")).toBeVisible();
  await expect(createdRow.getByTestId("delivery-response")).toContainText("ok");

  // A test event of any type (this endpoint takes all), through the real signing path.
  await card.getByLabel("Test event type").selectOption("paid");
  await card.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => got.length).toBe(3);
  expect(got[2]).toMatchObject({ type: "paid", verified: true });
  const testRow = log.getByRole("row").filter({ hasText: "paid" });
  await expect(testRow).toContainText("delivered");
  await expect(testRow).toContainText("test");
  await testRow.getByText("Payload and response").click();
  await expect(testRow.getByTestId("delivery-request")).toContainText('"test": true');
  await expect(testRow.getByText("Response: HTTP 200")).toBeVisible();
  await screenshots(page, "webhooks-test-event");

  await card.getByRole("button", { name: "Disable" }).click();
  await expect(card).toContainText("disabled");
  await expect(card.getByRole("button", { name: "Enable" })).toBeVisible();
});
