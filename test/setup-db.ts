import { beforeAll } from "vitest";
import { getDb } from "@/db/client";

// Runs before each integration test file (vitest setupFiles). Opening the database is set-up
// (PGlite: a WASM PostgreSQL plus the migrations, seconds on a busy machine; PostgreSQL: a
// connection), so it gets a hook with its own budget instead of eating into the first test's.
beforeAll(async () => {
  await getDb();
}, 300_000);
