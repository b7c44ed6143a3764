import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { startAnvil } from "@/lib/chain/anvil";

// Runs once per `vitest run`, in the main process; workers inherit process.env.
// - Database: with TEST_DATABASE_URL, a fresh database on that server for this run
//   (dropped afterwards); otherwise each worker opens an in-memory PGlite.
// - Chain: a real anvil on a free port (contracts: see test/setup-chain.ts).

const cleanups: Array<() => Promise<void>> = [];

async function freshPostgresDatabase(serverUrl: string): Promise<string> {
  const name = `milestone_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await migrate(drizzle(client), { migrationsFolder: path.resolve("db/migrations") });
  await client.end();
  cleanups.push(async () => {
    const a = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists "${name}" with (force)`);
    await a.end();
  });
  return url.toString();
}

export default async function setup(_project: TestProject) {
  process.env.LOG_LEVEL ??= "error";
  const dataDir = mkdtempSync(path.join(tmpdir(), "milestone-test-"));
  process.env.DATA_DIR = dataDir;
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    process.env.DATABASE_URL = await freshPostgresDatabase(serverUrl);
    console.log(`[test] PostgreSQL: ${new URL(process.env.DATABASE_URL).pathname.slice(1)}`);
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
