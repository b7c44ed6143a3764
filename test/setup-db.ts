import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeDb, getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";

// Runs before each integration test file (vitest setupFiles). Opening the database is set-up
// (PGlite: a WASM PostgreSQL plus the migrations, seconds on a busy machine; PostgreSQL: a
// connection), so it gets a hook with its own budget instead of eating into the first test's.
// On PGlite, the file gets its own copy of the data directory test/global-setup.ts migrated
// once (opening a copy skips initdb and the migrations), removed when the file is done.

let copy: string | undefined;
const template = process.env.TEST_PGLITE_TEMPLATE; // set by test/global-setup.ts
if (template && !process.env.DATABASE_URL && process.env.VITEST_POOL_ID) {
  copy = path.join(mkdtempSync(path.join(process.env.DATA_DIR ?? tmpdir(), "pglite-")), "db");
  cpSync(template, copy, { recursive: true });
  process.env.PGLITE_DIR = copy;
  resetEnvCache();
}

beforeAll(async () => {
  await getDb();
}, 300_000);

afterAll(async () => {
  if (!copy) return;
  await closeDb();
  rmSync(path.dirname(copy), { recursive: true, force: true });
});
