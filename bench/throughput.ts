// npm run bench (part 2) — settlement throughput against raw viem transfers, same run.
//
//   settles/s at concurrency c   whole settleMilestone calls (stored verdict, gate, claim,
//                                escrow release, receipt) from c concurrent callers, each on
//                                its own funded deal, vs. plain ERC-20 transfers sent with
//                                viem from one account (viem's nonce manager) by c concurrent
//                                senders, each waiting for its receipt (the sender's own
//                                receipt poll, as the settle does). Errors are counted.
//   settle p50 at concurrency 1  one settle's latency vs one raw transfer's
//   reputation drain             confirmed settlements recorded on the registry by the
//                                reconcile routine afterwards (the queue), records/s
import { performance } from "node:perf_hooks";
import {
  benchEnvironment,
  benchMilestones,
  median,
  pool,
  printRows,
  type Row,
  rawSender,
} from "./setup";

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
  const { db } = env;
  const { and, eq, isNull, sql } = await import("drizzle-orm");
  const { settlements } = await import("@/db/schema");
  const { settleMilestone } = await import("@/lib/settle/settle");
  const { reconcile } = await import("@/lib/settle/reconcile");

  // The raw baseline: one account, viem's own nonce manager so concurrent sends do not
  // collide, a receipt awaited per transfer.
  const rawTransfer = await rawSender(env);

  const fixtures = await benchMilestones(env);
  const { brand } = fixtures;
  /** A deal funded in the escrow, taken (creator recorded on-chain), with a deliverable. */
  const submittedMilestone = fixtures.one;

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
      ...base.failures.map((f) => `  a raw transfer failed: ${f}`),
      ...settle.failures.map((f) => `  a settle failed: ${f}`),
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
