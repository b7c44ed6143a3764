// npm run bench (deal page) — how soon the deal page is usable in a real browser, warm, against
// a baseline page of the same server measured in the same run.
//
//   deal page, Activity shown   navigation start to the Activity section showing the deal's
//                               events (not "Loading the activity…") and the Evidence card
//                               (or its "not read yet" line), for the deal's brand
//   deal page, title shown      navigation start to the deal's title
//   deal page, all filled       navigation start to every panel filled: Activity and Evidence
//                               as above, and no skeleton left (the creator's reputation,
//                               a chain read, included)
//   baseline                    navigation start to the home page's main heading
// Chromium as the e2e journeys find it (e2e/chromium.ts), signed in by a session cookie the
// bench signs with the server's secret; one `next start` of the production build in .next
// (built first when stale) on a fresh PostgreSQL database (BENCH_DATABASE_URL, else the local
// server) and a throwaway anvil. Each figure: BENCH_PAGE_REPS (default 7) loads after one
// warm-up, median. Goal (issue 25): under 1 s warm. BENCH_NEXT_DIST_DIR: measure the build in
// that dist dir instead of .next (with --no-build).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium } from "@playwright/test";
import { BASE_ARGS, resolveChromium } from "../e2e/chromium";
import { startInstance } from "../test/helpers/instances";
import { ensureBuild } from "./page-weight";
import { benchEnvironment, benchMilestones, median, postgresServer, printRows } from "./setup";

const REPS = Number(process.env.BENCH_PAGE_REPS ?? 7);

async function main() {
  ensureBuild(process.argv.includes("--no-build") ? "never" : "auto");
  // The bench signs the brand's session token with the server's secret.
  process.env.AUTH_SECRET = randomBytes(24).toString("hex");
  const bench = await benchEnvironment({ postgres: postgresServer() });
  const dataDir = mkdtempSync(path.join(tmpdir(), "milestone-page-"));
  const { eq } = await import("drizzle-orm");
  const { milestones } = await import("@/db/schema");
  const { createSessionToken, SESSION_COOKIE } = await import("@/lib/auth/session");
  const fixtures = await benchMilestones(bench);
  const [m] = await bench.db
    .select({ dealId: milestones.dealId })
    .from(milestones)
    .where(eq(milestones.id, await fixtures.one()));
  if (!m) throw new Error("no deal");
  const { token } = await createSessionToken(fixtures.brand.id);
  const app = await startInstance("deal-page", {
    // Another build to measure (e.g. one of an earlier commit, for a before/after), else .next.
    NEXT_DIST_DIR: process.env.BENCH_NEXT_DIST_DIR,
    DATA_DIR: dataDir,
    CRON_SECRET: randomBytes(24).toString("hex"),
    STORAGE_LOCAL_IN_PRODUCTION: "1",
    DEV_IDP_ENABLED: "1",
    LOG_LEVEL: "error",
  });
  const launch = await resolveChromium();
  const browser = await chromium.launch({
    executablePath: launch.executablePath,
    args: [...BASE_ARGS, ...launch.args],
  });
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: app.url }]);
    const page = await context.newPage();
    const timeTo = async (url: string, ready: () => Promise<unknown>) => {
      const t = performance.now();
      await page.goto(url, { waitUntil: "commit" });
      await ready();
      return performance.now() - t;
    };
    const dealUrl = `${app.url}/deals/${m.dealId}`;
    const activity = async () => {
      const timeline = page.getByTestId("timeline");
      await timeline
        .getByTestId("timeline-item")
        .or(timeline.getByText("Nothing has happened yet."))
        .first()
        .waitFor();
      await page
        .getByTestId("evidence-card")
        .or(page.getByTestId("evidence-none"))
        .first()
        .waitFor();
    };
    const filled = async () => {
      await activity();
      await page.waitForFunction(() => !document.querySelector('.skeleton, [aria-busy="true"]'));
    };
    const title = () => page.getByRole("heading", { level: 1 }).first().waitFor();
    // Warm-up: every route's code loaded, the browser's cache filled.
    await timeTo(dealUrl, activity);
    await timeTo(`${app.url}/`, title);
    const xs = {
      home: [] as number[],
      title: [] as number[],
      activity: [] as number[],
      filled: [] as number[],
    };
    for (let i = 0; i < REPS; i++) {
      xs.home.push(await timeTo(`${app.url}/`, title));
      xs.title.push(await timeTo(dealUrl, title));
      xs.activity.push(await timeTo(dealUrl, activity));
      xs.filled.push(await timeTo(dealUrl, filled));
    }
    const home = median(xs.home);
    printRows(
      `Deal page in Chromium (${launch.source}), warm, ${REPS} loads per figure, median; goal: usable under 1 s`,
      [
        ["deal page: title shown vs home page heading", home, median(xs.title), "ms"],
        ["deal page: Activity and Evidence shown vs home page", home, median(xs.activity), "ms"],
        ["deal page: every panel filled vs home page", home, median(xs.filled), "ms"],
      ],
    );
  } finally {
    await browser.close();
    await app.stop();
    await bench.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
