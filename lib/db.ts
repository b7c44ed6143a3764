import path from "node:path";
import { closeDb, configureDb, type DbSettings, dbDriver, getDb } from "@/db/client";
import { appUrl, dataDir, type Env, env } from "@/lib/env";
import { inSpan } from "@/lib/telemetry";

// The process-wide database, configured from the environment: db/client.ts reads no
// settings of its own, this module hands them over when it loads. App, lib, scripts and
// tests import getDb from here.

/** Where PGlite keeps its files when DATABASE_URL is unset. */
export function pgliteLocation(e: Env = env()): string {
  return e.PGLITE_DIR ?? path.join(dataDir(e), "pglite");
}

/** The database settings the environment gives (read again on every open). */
export function dbSettings(e: Env = env()): DbSettings {
  // A span per transaction: the statement groups of a request's trace (lib/telemetry.ts).
  const system = e.DATABASE_URL ? "postgresql" : "pglite";
  const aroundTransaction = <T>(run: () => Promise<T>) =>
    inSpan("db.transaction", { "db.system.name": system }, run);
  if (e.DATABASE_URL)
    return { url: e.DATABASE_URL, pgliteLocation: pgliteLocation(e), aroundTransaction };
  // The app server says where it answers, so a CLI can hand it work instead of opening
  // the database itself (npm run reconcile).
  const isServer = Boolean(e.NEXT_RUNTIME);
  return {
    pgliteLocation: pgliteLocation(e),
    aroundTransaction,
    ...(isServer ? { appUrl: appUrl(e) } : {}),
  };
}

configureDb(() => dbSettings());

export { closeDb, dbDriver, getDb };
