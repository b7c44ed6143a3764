// npm run bench (part 2) — settlement throughput against raw viem transfers, same run.
//
//   settles/s at concurrency c   whole settleMilestone calls (stored verdict, gate, claim,
//                                escrow release, receipt) from c concurrent callers, each on
//                                its own funded deal, vs. plain ERC-20 transfers sent with
//                                viem from one account (viem's nonce manager) by c concurrent
//                                senders, each waiting for its receipt. Errors are counted.
//   settle p50 at concurrency 1  one settle's latency vs one raw transfer's
//   reputation drain             confirmed settlements recorded on the registry by the
//                                reconcile routine afterwards (the queue), records/s
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { benchEnvironment, benchParties, median, printRows, type Row } from "./setup";

const LEVELS = [1, 5, 20];
const PER_LEVEL: Record<number, number> = { 1: 10, 5: 30, 20: 60 };
const WARM = 5;

/**
 * BENCH_PROFILE=<dir>: a V8 CPU profile of each level's settles alone (not the set-up),
 * written as <dir>/settle-c<N>.cpuprofile (open in Chrome DevTools or speedscope).
 */
async function startProfile(name: string): Promise<() => Promise<void>> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return async () => {};
  const { Session } = await import("node:inspector/promises");
  const { mkdir, writeFile } = await import("node:fs/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/${name}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  };
}

async function main() {
  const env = await benchEnvironment();
  const { db, anvil, deployment: d, treasuryKey } = env;
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { mintUsdc } = await import("@/lib/chain/deploy");
  const { encodeFunctionData } = await import("viem");
  const { privateKeyToAccount, generatePrivateKey, nonceManager } = await import("viem/accounts");
  const { createWalletClient, http } = await import("viem");
  const { milestoneEscrowAbi, mockUsdcAbi } = await import("@/contracts/artifacts");
  const { dealRef } = await import("@/lib/escrow/onchain");
  const { assignCreatorOnChain, syncFunding, toSeconds } = await import("@/lib/escrow/deals");
  const { and, eq, isNull, sql } = await import("drizzle-orm");
  const { deals, milestones, deliverables, settlements, verifications } = await import(
    "@/db/schema"
  );
  const { makeWalletClient } = await import("@/lib/chain/clients");
  const { chainConfig, publicClient } = await import("@/lib/chain/config");
  const { settleMilestone } = await import("@/lib/settle/settle");
  const { ensureRecordHash } = await import("@/lib/verify/verify-milestone");
  const { reconcile } = await import("@/lib/settle/reconcile");
  const config = chainConfig();

  // The raw baseline: one account, viem's own nonce manager so concurrent sends do not
  // collide, a receipt awaited per transfer.
  const rawAccount = privateKeyToAccount(devAccountKey(3), { nonceManager });
  const raw = createWalletClient({
    account: rawAccount,
    chain: config.known.chain,
    transport: http(anvil.rpcUrl),
  });
  const funder = makeWalletClient(
    { chain: config.known.chain, rpcUrl: anvil.rpcUrl },
    devAccountKey(2),
  );
  for (const to of [rawAccount.address, funder.account.address])
    await mintUsdc({
      rpcUrl: anvil.rpcUrl,
      ownerKey: treasuryKey,
      usdc: d.usdc,
      to,
      amount: 10n ** 15n,
    });
  await publicClient().waitForTransactionReceipt({
    hash: await funder.writeContract({
      address: d.usdc,
      abi: mockUsdcAbi,
      functionName: "approve",
      args: [d.escrow, 10n ** 30n],
    }),
  });
  const someone = () => privateKeyToAccount(generatePrivateKey()).address;
  async function rawTransfer() {
    const hash = await raw.sendTransaction({
      to: d.usdc,
      data: encodeFunctionData({
        abi: mockUsdcAbi,
        functionName: "transfer",
        args: [someone(), 1_000_000n],
      }),
    });
    const r = await publicClient().waitForTransactionReceipt({ hash, pollingInterval: 25 });
    if (r.status !== "success") throw new Error("raw transfer reverted");
  }

  const { brand, creator } = await benchParties(env);
  /** A deal funded in the escrow, taken (creator recorded on-chain), with a deliverable. */
  async function submittedMilestone(): Promise<string> {
    const [created] = await db
      .insert(deals)
      .values({ brandId: brand.id, title: `Bench deal ${randomUUID()}`, budgetUnits: 10_000_000n })
      .returning();
    if (!created) throw new Error("no deal");
    await publicClient().waitForTransactionReceipt({
      hash: await funder.writeContract({
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
    });
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
      url: "https://x.com/bench/status/1",
      text: "A real post #bench with enough words to look like one.",
      submittedBy: creator.id,
    });
    // The verdict is stored up front, as after POST /api/verify (with its record hash, as
    // verify stores it): the figure is the payment path (claim, release, receipt), not the
    // verifier or the fetch of the post.
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

  /** `total` jobs run by `c` concurrent workers: ops/s, per-op latencies, errors. */
  async function pool(c: number, total: number, job: (i: number) => Promise<unknown>) {
    let next = 0;
    let errors = 0;
    const latencies: number[] = [];
    const start = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: c }, async () => {
        for (let i = next++; i < total; i = next++) {
          const t = performance.now();
          try {
            await job(i);
          } catch (err) {
            errors++;
            if (errors <= 3) console.error(err);
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    return {
      perSecond: (total * 1000) / (performance.now() - start),
      latencies,
      errors,
      /** This process's CPU (all threads) per operation, ms. */
      cpuMs: (used.user + used.system) / 1000 / total,
    };
  }

  // Warm both paths (connections, JIT) the same number of times.
  for (let k = 0; k < WARM; k++) {
    await rawTransfer();
    const warm = await submittedMilestone();
    await settleMilestone(
      db,
      brand,
      { milestoneId: warm, via: "direct" },
      { verifier: { model: null } },
    );
  }

  const rows: Row[] = [];
  const notes: string[] = [];
  for (const c of LEVELS) {
    const total = PER_LEVEL[c] ?? 20;
    const ids: string[] = [];
    for (let k = 0; k < total; k++) ids.push(await submittedMilestone());
    const base = await pool(c, total, () => rawTransfer());
    const stopProfile = await startProfile(`settle-c${c}`);
    const settle = await pool(c, total, async (i) => {
      const result = await settleMilestone(
        db,
        brand,
        { milestoneId: ids[i] as string, via: "direct" },
        { verifier: { model: null } },
      );
      if (result.outcome !== "paid") throw new Error(`settle answered ${result.outcome}`);
    });
    await stopProfile();
    rows.push([
      `settles/s at concurrency ${c} vs raw transfers/s`,
      base.perSecond,
      settle.perSecond,
      "ops/s",
    ]);
    if (c === 1)
      rows.push([
        "settle p50 latency at concurrency 1 vs one raw transfer",
        median(base.latencies),
        median(settle.latencies),
        "ms",
      ]);
    notes.push(
      `concurrency ${c}: ${total} each; errors raw ${base.errors}, settle ${settle.errors}; CPU of this process per op: raw ${base.cpuMs.toFixed(1)} ms, settle ${settle.cpuMs.toFixed(1)} ms`,
    );
  }

  // Whatever reputation records the settles left to the queue, drained as reconcile does.
  const [queued] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(settlements)
    .where(and(eq(settlements.status, "confirmed"), isNull(settlements.reputationTxHash)));
  const t = performance.now();
  const report = await reconcile(db);
  const drainMs = performance.now() - t;
  notes.push(
    `reputation queue after the settles: ${queued?.n ?? 0} records; one reconcile run recorded ${report.reputations} in ${drainMs.toFixed(0)} ms`,
  );

  printRows(`Settlement throughput — database: ${env.driver}, chain: anvil`, rows);
  for (const n of notes) console.log(`  ${n}`);
  await env.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
