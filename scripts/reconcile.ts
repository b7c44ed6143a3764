// npm run reconcile — finish settlements and transactions a request left unfinished.
//   -- --settlement <id>   only that settlement
import { parseArgs } from "node:util";
import { closeDb, getDb } from "@/db/client";
import { reconcile } from "@/lib/settle/reconcile";

async function main() {
  const { values } = parseArgs({ options: { settlement: { type: "string" } } });
  const report = await reconcile(await getDb(), { settlementId: values.settlement });
  console.log(JSON.stringify(report, null, 2));
  await closeDb();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
