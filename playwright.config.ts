import { defineConfig, devices } from "@playwright/test";
import { BASE_ARGS, ensureChromium, findReadyChromium } from "./e2e/chromium";

// Browser journeys in Chromium (Debian's when installed, else the one inside the
// @sparticuz/chromium npm package: see e2e/chromium.ts) against the production build on
// embedded defaults: its own data dir (wiped), its own anvil on a free port, PGlite.
// E2E_PORT lets two checkouts run their journeys side by side (the dev identity provider takes
// the next port, and e2e/webhooks.spec.ts's receiver port + 99).
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

// This file is loaded by the runner and again by every worker. In the runner, start finding
// (or unpacking) Chromium now, so it overlaps the web server's build; e2e/global-setup.ts
// awaits it and hands the result to the workers, which read it here.
if (!process.env.TEST_WORKER_INDEX) void ensureChromium();
const chromium = findReadyChromium();

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium?.executablePath,
      args: [...BASE_ARGS, ...(chromium?.args ?? [])],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "npx tsx scripts/dev.ts --prod --fresh --rpc-port 0",
    url: `${baseURL}/api/health`,
    // The production build runs inside this start: minutes on a busy two-core machine.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // The dev identity provider is off under `next start` unless enabled: the journeys sign in with it.
    env: {
      PORT: String(port),
      DATA_DIR: ".data/e2e",
      LOG_LEVEL: "warn",
      APP_URL: baseURL,
      DEV_IDP_ENABLED: "1",
      // e2e/webhooks.spec.ts runs a webhook receiver on loopback: exempt from the outbound rules.
      FETCH_ALLOWED_HOSTS: `127.0.0.1:${port + 99}`,
    },
  },
});
