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

/** The PostgreSQL server the HTTP benchmarks need: BENCH_DATABASE_URL, else the local one. */
export const postgresServer = () =>
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function benchEnvironment(
  opts: {
    /** A fresh database on this PostgreSQL server (default: BENCH_DATABASE_URL, else PGlite). */
    postgres?: string;
    /** anvil's seconds between blocks (the chain starts in automine all the same; see mining). */
    blockTime?: number;
    /** anvil's block gas limit (default anvil's 30M). */
    gasLimit?: number;
  } = {},
) {
  const { startAnvil } = await import("@/lib/chain/anvil");
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { deployFundedContracts } = await import("@/lib/chain/deploy");
  const { createFreshDatabase } = await import("@/db/fresh");
  const server = opts.postgres ?? process.env.BENCH_DATABASE_URL;
  const fresh = server ? await createFreshDatabase(server, "milestone_bench") : null;
  const anvil = await startAnvil({ port: 0, blockTime: opts.blockTime, gasLimit: opts.gasLimit });
  const rpc = (method: string, params: unknown[]) =>
    fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }).then(async (r) => {
      const body = (await r.json()) as { error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
    });
  /**
   * The fixtures (deploy, fund, assign) are made in automine, then the chain goes back to
   * `--block-time` for the measurement: evm_setIntervalMining is what --block-time sets.
   */
  const mining = {
    automine: () => rpc("evm_setAutomine", [true]),
    blocks: () =>
      opts.blockTime ? rpc("evm_setIntervalMining", [opts.blockTime]) : Promise.resolve(),
  };
  if (opts.blockTime) await mining.automine();
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
    mining,
    /** The fresh PostgreSQL database, when there is one. */
    database: fresh ? { url: fresh.url, name: fresh.name } : null,
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

/**
 * Funded, taken milestones with a stored approved verdict, as POST /api/settle finds them after
 * POST /api/verify: each on a deal of its own, funded in the escrow by one brand wallet (devAccount
 * 2, viem's nonce manager, so several can be made at once), the creator recorded on-chain. The
 * figures measure the payment path (claim, release, receipt), not the verifier.
 */
export async function benchMilestones(env: BenchEnv) {
  const { db, anvil, deployment: d, treasuryKey } = env;
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { mintUsdc } = await import("@/lib/chain/deploy");
  const { createWalletClient, http } = await import("viem");
  const { privateKeyToAccount, nonceManager } = await import("viem/accounts");
  const { milestoneEscrowAbi, mockUsdcAbi } = await import("@/contracts/artifacts");
  const { dealRef } = await import("@/lib/escrow/onchain");
  const { assignCreatorOnChain, syncFunding, toSeconds } = await import("@/lib/escrow/deals");
  const { eq } = await import("drizzle-orm");
  const { deals, milestones, deliverables, verifications } = await import("@/db/schema");
  const { chainConfig } = await import("@/lib/chain/config");
  const { pollReceipt } = await import("@/lib/chain/sender");
  const { ensureRecordHash } = await import("@/lib/verify/verify-milestone");
  const config = chainConfig();
  const parties = await benchParties(env);
  const { brand, creator } = parties;
  const funder = createWalletClient({
    account: privateKeyToAccount(devAccountKey(2), { nonceManager }),
    chain: config.known.chain,
    transport: http(anvil.rpcUrl),
  });
  await mintUsdc({
    rpcUrl: anvil.rpcUrl,
    ownerKey: treasuryKey,
    usdc: d.usdc,
    to: funder.account.address,
    amount: 10n ** 15n,
  });
  await pollReceipt(
    await funder.writeContract({
      address: d.usdc,
      abi: mockUsdcAbi,
      functionName: "approve",
      args: [d.escrow, 10n ** 30n],
    }),
    30_000,
  );

  async function one(): Promise<string> {
    const [created] = await db
      .insert(deals)
      .values({ brandId: brand.id, title: `Bench deal ${randomUUID()}`, budgetUnits: 10_000_000n })
      .returning();
    if (!created) throw new Error("no deal");
    const funded = await pollReceipt(
      await funder.writeContract({
        address: d.escrow,
        abi: milestoneEscrowAbi,
        functionName: "fund",
        args: [
          dealRef(created.id),
          config.treasuryAddress as `0x${string}`,
          toSeconds(created.deadlineAt),
          [10_000_000n],
        ],
      }),
      30_000,
    );
    if (funded?.status !== "success")
      throw new Error(
        `bench deal's funding failed: ${funded ? `${funded.status} in block ${funded.blockNumber}` : "no receipt in 30 s"}`,
      );
    const [m] = await db
      .insert(milestones)
      .values({
        dealId: created.id,
        position: 0,
        title: "Post",
        amountUnits: 10_000_000n,
        requirements: { hashtags: ["#bench"], mentions: [], links: [], criteria: [] },
        status: "submitted",
        revision: 1,
      })
      .returning();
    if (!m) throw new Error("no milestone");
    const check = await syncFunding(db, created, { funder: funder.account.address });
    if (check.status !== "funded") throw new Error(`bench deal not funded: ${check.status}`);
    const [taken] = await db
      .update(deals)
      .set({ creatorId: creator.id, creatorWallet: creator.walletAddress, status: "active" })
      .where(eq(deals.id, created.id))
      .returning();
    if (!taken) throw new Error("not taken");
    await assignCreatorOnChain(db, taken);
    await db.insert(deliverables).values({
      milestoneId: m.id,
      revision: 1,
      // A post of its own: a post pays one milestone (lib/deals/evidence-claims).
      url: `https://x.com/bench/status/${BigInt(`0x${randomUUID().replaceAll("-", "").slice(0, 15)}`)}`,
      text: "A real post #bench with enough words to look like one.",
      submittedBy: creator.id,
    });
    // The verdict is stored up front, as after POST /api/verify (with its record hash, as
    // verify stores it).
    const [v] = await db
      .insert(verifications)
      .values({
        milestoneId: m.id,
        revision: 1,
        approved: true,
        scoreBps: 9000,
        reasoning: "bench",
        missing: [],
        model: "bench",
        latencyMs: 0,
      })
      .returning();
    if (!v) throw new Error("no verification");
    await ensureRecordHash(db, v);
    return m.id;
  }

  return {
    ...parties,
    funder,
    /** One milestone ready to settle. */
    one,
    /** `n` of them, made `concurrency` at a time. */
    async many(n: number, concurrency = 8): Promise<string[]> {
      const ids: string[] = [];
      const made = await pool(concurrency, n, async () => {
        ids.push(await one());
      });
      if (made.errors)
        throw new Error(
          `${made.errors} of ${n} bench milestones not made: ${made.failures.join(" | ")}`,
        );
      return ids;
    },
  };
}

export type PoolResult = {
  perSecond: number;
  latencies: number[];
  errors: number;
  /** The first few errors' messages (at most FAILURES_KEPT, each cut to 300 characters). */
  failures: string[];
  /** This process's CPU (all threads) per operation, ms. */
  cpuMs: number;
  elapsedMs: number;
};

const FAILURES_KEPT = 3;

/** `total` jobs run by `c` concurrent workers: ops/s, per-op latencies, errors. */
export async function pool(
  c: number,
  total: number,
  job: (i: number) => Promise<unknown>,
): Promise<PoolResult> {
  let next = 0;
  let errors = 0;
  const failures: string[] = [];
  const latencies: number[] = [];
  const start = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: Math.min(c, total) }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        try {
          await job(i);
        } catch (err) {
          errors++;
          if (failures.length < FAILURES_KEPT)
            failures.push((err instanceof Error ? err.message : String(err)).slice(0, 300));
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const elapsedMs = performance.now() - start;
  return {
    perSecond: (total * 1000) / elapsedMs,
    latencies,
    errors,
    failures,
    cpuMs: (used.user + used.system) / 1000 / total,
    elapsedMs,
  };
}

/** Raw single ERC-20 transfers from one account, each waiting for its receipt. */
export async function rawSender(env: BenchEnv) {
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { createWalletClient, encodeFunctionData, http } = await import("viem");
  const { privateKeyToAccount, generatePrivateKey, nonceManager } = await import("viem/accounts");
  const { mockUsdcAbi } = await import("@/contracts/artifacts");
  const { chainConfig } = await import("@/lib/chain/config");
  const { pollReceipt, sendTransaction } = await import("@/lib/chain/sender");
  const account = privateKeyToAccount(devAccountKey(3), { nonceManager });
  const wallet = createWalletClient({
    account,
    chain: chainConfig().known.chain,
    transport: http(env.anvil.rpcUrl),
  });
  // Minted by the treasury through the service's own sender, on the nonce counter the servers
  // share: signed apart on the node's nonce (lib/chain/deploy mintUsdc), the mint took a nonce
  // the counter then gave to the next transaction of the treasury — a reputation record the
  // servers were still sending after the previous level, or a bench milestone's assignment —
  // which the node refused as "nonce too low".
  const minted = await sendTransaction(env.db, env.treasuryKey, {
    to: env.deployment.usdc,
    data: encodeFunctionData({
      abi: mockUsdcAbi,
      functionName: "mint",
      args: [account.address, 10n ** 15n],
    }),
    purpose: "bench:mint",
  });
  if (minted.status !== "confirmed")
    throw new Error(`minting the raw sender's USDC: ${minted.status}`);
  async function rawTransfer() {
    const hash = await wallet.sendTransaction({
      to: env.deployment.usdc,
      data: encodeFunctionData({
        abi: mockUsdcAbi,
        functionName: "transfer",
        args: [privateKeyToAccount(generatePrivateKey()).address, 1_000_000n],
      }),
    });
    // The server's own receipt wait (lib/chain/sender pollReceipt), for a like-for-like wait.
    const r = await pollReceipt(hash, 60_000);
    if (r?.status !== "success") throw new Error("raw transfer failed");
  }
  // One first, alone: viem's nonce manager reads the account's nonce on first use, and many
  // first uses at once left a gap the node never mined past (a bench section hung on it).
  await rawTransfer();
  return rawTransfer;
}
