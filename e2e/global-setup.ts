import { ensureChromium, HANDOFF_ENV } from "./chromium";

// Runs once in the Playwright runner, after the web server is up. The Chromium lookup (and,
// the first time on a machine without Chromium, the unpack) started when the config was
// loaded, alongside the web server's build; here it is awaited and handed to the workers,
// which inherit the runner's environment.
export default async function globalSetup() {
  const chromium = await ensureChromium();
  process.env[HANDOFF_ENV] = JSON.stringify(chromium);
  console.log(`[e2e] Chromium: ${chromium.source}`);
}
