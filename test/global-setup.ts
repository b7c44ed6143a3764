import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createFreshDatabase } from "@/db/fresh";
import { startAnvil } from "@/lib/chain/anvil";
import { deployFundedContracts } from "@/lib/chain/deploy";
import { closeDb, getDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { deploymentEnv, SLOTS_ENV, slotKeys } from "./chain-slots";

// Runs once per `vitest run`, in the main process; workers inherit process.env.
// - Database: with TEST_DATABASE_URL, a fresh database on that server for this run
//   (dropped afterwards); otherwise a PGlite data directory migrated here once, of which
//   each test file's process opens a copy of its own (test/setup-db.ts): a fresh PGlite
//   spends seconds of CPU in initdb, a copy opens in about one.
// - Chain: a real anvil on a free port, and the contracts deployed once per worker slot
//   (test/chain-slots.ts; test/setup-chain.ts points each worker at its slot's).

const cleanups: Array<() => Promise<void>> = [];

export default async function setup(project: TestProject) {
  process.env.LOG_LEVEL ??= "error";
  const dataDir = mkdtempSync(path.join(tmpdir(), "milestone-test-"));
  process.env.DATA_DIR = dataDir;
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const fresh = await createFreshDatabase(serverUrl);
    cleanups.push(fresh.drop);
    process.env.DATABASE_URL = fresh.url;
    console.log(`[test] PostgreSQL: ${fresh.name}`);
  } else {
    delete process.env.DATABASE_URL;
    const template = path.join(dataDir, "pglite-template");
    process.env.PGLITE_DIR = template;
    resetEnvCache();
    await getDb(); // creates and migrates it
    await closeDb();
    process.env.TEST_PGLITE_TEMPLATE = template; // read by test/setup-db.ts
    process.env.PGLITE_DIR = "memory://"; // for any process that does not take a copy
    resetEnvCache();
    console.log("[test] PGlite (a copy of one migrated data directory per test file)");
  }

  // A real anvil on a free port, and one deployment per worker slot on it (each by the
  // slot's own treasury key, so the slots' nonces never meet), made here once rather than
  // by every test file.
  const anvil = await startAnvil({ port: 0 });
  cleanups.push(() => anvil.stop());
  process.env.CHAIN = "local";
  process.env.RPC_URL = anvil.rpcUrl;
  const workers = project.config.maxWorkers || project.vitest.config.maxWorkers || 1;
  const slots = Array.from({ length: workers }, (_, i) => i + 1);
  const deployments = await Promise.all(
    slots.map(async (slot) => {
      const { treasuryKey } = slotKeys(slot);
      const d = await deployFundedContracts({ rpcUrl: anvil.rpcUrl, treasuryKey });
      return [slot, deploymentEnv(d)] as const;
    }),
  );
  process.env[SLOTS_ENV] = JSON.stringify(Object.fromEntries(deployments));
  console.log(`[test] anvil ${anvil.rpcUrl}, contracts for ${workers} worker slot(s)`);

  return async () => {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error(e));
    console.log("[test] teardown done");
  };
}
