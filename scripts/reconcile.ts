// npm run reconcile — finish settlements and transactions a request left unfinished.
//   -- --settlement <id>   only that settlement
//
// On the embedded database only one process may open the data directory. When the app is
// running it holds it, so this asks the app to reconcile (its cron route, with the
// embedded cron secret) instead of opening a second, diverging copy — which once paid a
// milestone twice.
import { parseArgs } from "node:util";
import { dataDirHolder } from "@/db/data-dir-lock";
import { cronSecret } from "@/lib/cron";
import { closeDb, getDb, pgliteLocation } from "@/lib/db";
import { env } from "@/lib/env";
import { reconcile } from "@/lib/settle/reconcile";

async function throughRunningApp(appUrl: string, settlementId?: string): Promise<unknown> {
  const secret = cronSecret();
  if (!secret) throw new Error("No cron secret: set CRON_SECRET to the app's value.");
  const url = new URL("/api/cron/reconcile", appUrl);
  if (settlementId) url.searchParams.set("settlement", settlementId);
  const res = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`The app answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function main() {
  const { values } = parseArgs({ options: { settlement: { type: "string" } } });
  const e = env();
  if (!e.DATABASE_URL) {
    const holder = dataDirHolder(pgliteLocation(e));
    if (holder?.appUrl) {
      console.error(`[reconcile] the app (pid ${holder.pid}) holds the database; asking it`);
      console.log(
        JSON.stringify(await throughRunningApp(holder.appUrl, values.settlement), null, 2),
      );
      return;
    }
    // Another process without a URL (e.g. a second script): getDb() refuses with the reason.
  }
  const report = await reconcile(await getDb(), { settlementId: values.settlement });
  console.log(JSON.stringify(report, null, 2));
  await closeDb();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
