// A second process for the data-directory lock test: opens the embedded database named by
// PGLITE_DIR, says "ready", and keeps it open until its stdin closes (or it is killed).

import { lockDataDir } from "@/db/data-dir-lock";
import { closeDb, getDb } from "@/lib/db";
import { env } from "@/lib/env";

const appUrl = process.argv[2];
if (appUrl) {
  // Stand in for the app server: hold the directory with the URL where it answers.
  lockDataDir(env().PGLITE_DIR as string, { appUrl });
} else {
  await getDb();
}
console.log("ready");
process.stdin.resume();
process.stdin.on("end", async () => {
  if (!appUrl) await closeDb();
  process.exit(0);
});
