// npm run bench — speed figures as ratios against a baseline measured in the same run.
//
// Runs against a throwaway anvil and an in-memory PGlite, or with BENCH_DATABASE_URL (a
// PostgreSQL server) a fresh database created on it and dropped afterwards. Each figure is the median of its rounds.
//   sender      a USDC transfer through lib/chain/sender (advisory lock, record, broadcast,
//               receipt) vs. the same transfer sent straight with viem (baseline)
//   sender ×N   N concurrent sends through the sender vs. N sequential plain viem sends
//   settle      a whole POST /api/settle on a stored verdict (gate, claim, escrow release,
//               receipt, reputation record) vs. the plain viem transfer
//   release     the escrow release transaction alone, through the sender, vs. the plain
//               viem transfer (what holding the brand's money costs on-chain)
//   deal list   GET /api/deals for a brand with 100 deals vs. a trivial `select 1`
// `npm run bench` runs this as its `core` section, then the others (bench/main.ts).
import { benchEnvironment, benchMilestones, median, timeOne } from "./setup";

const ROUNDS = Number(process.argv[2] ?? 5);

async function main() {
  const env = await benchEnvironment();
  const { db, anvil, deployment: d, treasuryKey } = env;
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { mintUsdc } = await import("@/lib/chain/deploy");
  const { privateKeyToAccount, generatePrivateKey } = await import("viem/accounts");
  const { sql } = await import("drizzle-orm");
  const { encodeFunctionData } = await import("viem");
  const { mockUsdcAbi } = await import("@/contracts/artifacts");
  const { dealKey } = await import("@/lib/escrow/onchain");
  const { escrowCall } = await import("@/lib/escrow/chain");
  const { eq } = await import("drizzle-orm");
  const { milestones } = await import("@/db/schema");
  const { makeWalletClient } = await import("@/lib/chain/clients");
  const { chainConfig, publicClient } = await import("@/lib/chain/config");
  const { sendTransaction } = await import("@/lib/chain/sender");
  const { listDeals } = await import("@/lib/deals/deals");
  const { settleMilestone } = await import("@/lib/settle/settle");

  const config = chainConfig();
  const plainWallet = makeWalletClient(
    { chain: config.known.chain, rpcUrl: anvil.rpcUrl },
    devAccountKey(1),
  );
  await mintUsdc({
    rpcUrl: anvil.rpcUrl,
    ownerKey: treasuryKey,
    usdc: d.usdc,
    to: plainWallet.account.address,
    amount: 10n ** 15n,
  });
  const someone = () => privateKeyToAccount(generatePrivateKey()).address;
  const transferData = () =>
    encodeFunctionData({
      abi: mockUsdcAbi,
      functionName: "transfer",
      args: [someone(), 1_000_000n],
    });

  async function plainTransfer() {
    const hash = await plainWallet.sendTransaction({ to: d.usdc, data: transferData() });
    const r = await publicClient().waitForTransactionReceipt({ hash });
    if (r.status !== "success") throw new Error("plain transfer reverted");
  }
  const viaSender = () =>
    sendTransaction(db, treasuryKey, { to: d.usdc, data: transferData(), purpose: "bench" });

  // Fixtures for settle and the deal list: funded, taken milestones with a stored verdict
  // (the verifier cannot read a bench post: the figure is the settle path after the verdict).
  const fixtures = await benchMilestones(env);
  const { brand, funder } = fixtures;
  const submittedMilestone = fixtures.one;
  await fixtures.many(100);

  /** The release transaction alone (evaluator → escrow), sent through the sender. */
  async function releaseOnly(milestoneId: string) {
    const [row] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    return sendTransaction(db, treasuryKey, {
      to: d.escrow,
      data: escrowCall.release(
        dealKey(funder.account.address, row!.dealId),
        0,
        5_000_000n,
        `0x${"11".repeat(32)}`,
      ),
      purpose: "bench:release",
    });
  }

  const rows: Array<[string, number, number, string]> = [];
  const record = (name: string, baseline: number, value: number, unit: string) =>
    rows.push([name, baseline, value, unit]);

  // Warm up both paths (connections, JIT).
  await plainTransfer();
  await viaSender();

  const base: number[] = [];
  const sender: number[] = [];
  const concurrentBase: number[] = [];
  const concurrent: number[] = [];
  const settle: number[] = [];
  const release: number[] = [];
  const listBase: number[] = [];
  const list: number[] = [];
  const N = 20;
  for (let r = 0; r < ROUNDS; r++) {
    base.push(await timeOne(plainTransfer, 10));
    sender.push(await timeOne(viaSender, 10));
    concurrentBase.push(
      await timeOne(async () => {
        for (let i = 0; i < N; i++) await plainTransfer();
      }, 1),
    );
    concurrent.push(await timeOne(() => Promise.all(Array.from({ length: N }, viaSender)), 1));
    const ids: string[] = [];
    for (let k = 0; k < 5; k++) ids.push(await submittedMilestone()); // one funder wallet: in order
    let i = 0;
    settle.push(
      await timeOne(
        () =>
          settleMilestone(
            db,
            brand,
            { milestoneId: ids[i++] as string, via: "direct" },
            { verifier: { model: null } },
          ),
        5,
      ),
    );
    const releaseIds: string[] = [];
    for (let k = 0; k < 5; k++) releaseIds.push(await submittedMilestone());
    let j = 0;
    release.push(await timeOne(() => releaseOnly(releaseIds[j++] as string), 5));
    listBase.push(await timeOne(() => db.execute(sql`select 1`), 20));
    list.push(await timeOne(() => listDeals(db, brand), 5));
  }
  record("sender: one transfer", median(base), median(sender), "ms/op");
  record(
    `sender: ${N} concurrent vs ${N} sequential plain`,
    median(concurrentBase),
    median(concurrent),
    "ms/batch",
  );
  record("settle: whole POST /api/settle vs plain transfer", median(base), median(settle), "ms/op");
  record(
    "release: escrow release tx vs plain ERC-20 transfer",
    median(base),
    median(release),
    "ms/op",
  );
  record("deal list (100 deals) vs select 1", median(listBase), median(list), "ms/op");

  console.log(
    `\nMilestone benchmarks — ${ROUNDS} rounds, median; database: ${env.driver}, chain: anvil\n`,
  );
  console.log(
    [
      "figure".padEnd(52),
      "baseline".padStart(10),
      "measured".padStart(10),
      "ratio".padStart(8),
      "  unit",
    ].join(""),
  );
  for (const [name, b, v, unit] of rows)
    console.log(
      [
        name.padEnd(52),
        b.toFixed(2).padStart(10),
        v.toFixed(2).padStart(10),
        `${(v / b).toFixed(2)}×`.padStart(8),
        `  ${unit}`,
      ].join(""),
    );
  const mem = process.memoryUsage();
  console.log(
    `\nrss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB after the run`,
  );

  await env.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
