import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createFreshDatabase } from "@/db/fresh";
import { startAnvil } from "@/lib/chain/anvil";

// Runs once per `vitest run`, in the main process; workers inherit process.env.
// - Database: with TEST_DATABASE_URL, a fresh database on that server for this run
//   (dropped afterwards); otherwise each worker opens an in-memory PGlite.
// - Chain: a real anvil on a free port (contracts: see test/setup-chain.ts).

const cleanups: Array<() => Promise<void>> = [];

export default async function setup(_project: TestProject) {
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
    process.env.PGLITE_DIR = "memory://";
    console.log("[test] PGlite (in memory, one per worker)");
  }

  // A real anvil on a free port. Each test file deploys its own contracts on it with its
  // own signer accounts (test/setup-chain.ts), so parallel workers never share a nonce.
  const anvil = await startAnvil({ port: 0 });
  cleanups.push(() => anvil.stop());
  process.env.CHAIN = "local";
  process.env.RPC_URL = anvil.rpcUrl;
  console.log(`[test] anvil ${anvil.rpcUrl}`);

  return async () => {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error(e));
    console.log("[test] teardown done");
  };
}
