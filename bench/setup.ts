// Shared set-up of the benchmarks: a throwaway anvil with the contracts deployed, and an
// in-memory PGlite or (BENCH_DATABASE_URL) a fresh database on a PostgreSQL server; the
// environment pointed at both before any app module reads it.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ??
  Number.NaN;

export async function timeOne(fn: () => Promise<unknown>, reps: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < reps; i++) await fn();
  return (performance.now() - start) / reps;
}

export type Row = [name: string, baseline: number, value: number, unit: string];

/** Prints figures as baseline / measured / ratio. */
export function printRows(title: string, rows: Row[]): void {
  console.log(`\n${title}\n`);
  console.log(
    [
      "figure".padEnd(58),
      "baseline".padStart(10),
      "measured".padStart(10),
      "ratio".padStart(8),
      "  unit",
    ].join(""),
  );
  for (const [name, b, v, unit] of rows)
    console.log(
      [
        name.padEnd(58),
        b.toFixed(2).padStart(10),
        v.toFixed(2).padStart(10),
        `${(v / b).toFixed(2)}×`.padStart(8),
        `  ${unit}`,
      ].join(""),
    );
}

export async function benchEnvironment() {
  const { startAnvil } = await import("@/lib/chain/anvil");
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { deployFundedContracts } = await import("@/lib/chain/deploy");
  const { createFreshDatabase } = await import("@/db/fresh");
  const server = process.env.BENCH_DATABASE_URL;
  const fresh = server ? await createFreshDatabase(server, "milestone_bench") : null;
  const anvil = await startAnvil({ port: 0 });
  const treasuryKey = devAccountKey(0);
  const d = await deployFundedContracts({ rpcUrl: anvil.rpcUrl, treasuryKey, amount: 10n ** 15n });
  Object.assign(process.env, {
    CHAIN: "local",
    RPC_URL: anvil.rpcUrl,
    USDC_ADDRESS: d.usdc,
    REPUTATION_REGISTRY_ADDRESS: d.registry,
    ESCROW_ADDRESS: d.escrow,
    DEPOSIT_FACTORY_ADDRESS: d.depositFactory,
    TREASURY_PRIVATE_KEY: treasuryKey,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "milestone-bench-")),
    LOG_LEVEL: "error",
    ...(fresh ? { DATABASE_URL: fresh.url } : { PGLITE_DIR: "memory://" }),
  });
  const { getDb, closeDb, dbDriver } = await import("@/lib/db");
  const db = await getDb();
  return {
    db,
    anvil,
    deployment: d,
    treasuryKey,
    driver: await dbDriver(),
    async close() {
      await closeDb();
      await anvil.stop();
      await fresh?.drop();
    },
  };
}

export type BenchEnv = Awaited<ReturnType<typeof benchEnvironment>>;

/** A brand and a creator with a proven wallet. */
export async function benchParties(env: BenchEnv) {
  const { users } = await import("@/db/schema");
  const { privateKeyToAccount, generatePrivateKey } = await import("viem/accounts");
  const [brand] = await env.db
    .insert(users)
    .values({
      issuer: "bench",
      subject: randomUUID(),
      email: `brand-${randomUUID()}@bench.invalid`,
      profileType: "organization",
      displayName: "Bench Brand",
    })
    .returning();
  const [creator] = await env.db
    .insert(users)
    .values({
      issuer: "bench",
      subject: randomUUID(),
      email: `creator-${randomUUID()}@bench.invalid`,
      profileType: "creator",
      walletAddress: privateKeyToAccount(generatePrivateKey()).address,
      walletSource: "signature",
    })
    .returning();
  if (!brand || !creator) throw new Error("no fixtures");
  return { brand, creator };
}
