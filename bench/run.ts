// npm run bench — speed figures as ratios against a baseline measured in the same run.
//
// Runs against a throwaway anvil and an in-memory PGlite, or with BENCH_DATABASE_URL (a
// PostgreSQL server) a fresh database created on it and dropped afterwards. Each figure is the median of its rounds.
//   sender      a USDC transfer through lib/chain/sender (advisory lock, record, broadcast,
//               receipt) vs. the same transfer sent straight with viem (baseline)
//   sender ×N   N concurrent sends through the sender vs. N sequential plain viem sends
//   settle      a whole POST /api/settle (rubric verdict, gate, claim, escrow release,
//               receipt, reputation record) vs. the plain viem transfer
//   release     the escrow release transaction alone, through the sender, vs. the plain
//               viem transfer (what holding the brand's money costs on-chain)
//   deal list   GET /api/deals for a brand with 100 deals vs. a trivial `select 1`
// `npm run bench` then runs bench/throughput.ts, bench/lists.ts, bench/auth-get.ts
// (authenticated GET throughput) and bench/page-weight.ts (First Load JS per main route
// against an empty page; builds the app first when .next is missing or older than the code).
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const ROUNDS = Number(process.argv[2] ?? 5);
const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main() {
  const { startAnvil } = await import("@/lib/chain/anvil");
  const { devAccountKey } = await import("@/lib/chain/dev-accounts");
  const { deployFundedContracts, mintUsdc } = await import("@/lib/chain/deploy");
  const { privateKeyToAccount, generatePrivateKey } = await import("viem/accounts");

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

  const { sql } = await import("drizzle-orm");
  const { encodeFunctionData } = await import("viem");
  const { milestoneEscrowAbi, mockUsdcAbi } = await import("@/contracts/artifacts");
  const { dealKey, dealRef } = await import("@/lib/escrow/onchain");
  const { assignCreatorOnChain, syncFunding, toSeconds } = await import("@/lib/escrow/deals");
  const { escrowCall } = await import("@/lib/escrow/chain");
  const { eq } = await import("drizzle-orm");
  const { getDb, closeDb, dbDriver } = await import("@/lib/db");
  const { users, deals, milestones, deliverables } = await import("@/db/schema");
  const { makeWalletClient } = await import("@/lib/chain/clients");
  const { chainConfig, publicClient } = await import("@/lib/chain/config");
  const { sendTransaction } = await import("@/lib/chain/sender");
  const { listDeals } = await import("@/lib/deals/deals");
  const { settleMilestone } = await import("@/lib/settle/settle");

  const db = await getDb();
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
  // The brand's wallet, which funds every bench deal's escrow.
  const funder = makeWalletClient(
    { chain: config.known.chain, rpcUrl: anvil.rpcUrl },
    devAccountKey(2),
  );
  await mintUsdc({
    rpcUrl: anvil.rpcUrl,
    ownerKey: treasuryKey,
    usdc: d.usdc,
    to: funder.account.address,
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

  async function timeOne(fn: () => Promise<unknown>, reps: number): Promise<number> {
    const start = performance.now();
    for (let i = 0; i < reps; i++) await fn();
    return (performance.now() - start) / reps;
  }

  // Fixtures for settle and the deal list.
  const [brand] = await db
    .insert(users)
    .values({
      issuer: "bench",
      subject: randomUUID(),
      email: "brand@bench.invalid",
      profileType: "organization",
    })
    .returning();
  const [creator] = await db
    .insert(users)
    .values({
      issuer: "bench",
      subject: randomUUID(),
      email: "creator@bench.invalid",
      profileType: "creator",
      walletAddress: someone(),
      walletSource: "signature",
    })
    .returning();
  if (!brand || !creator) throw new Error("no fixtures");
  /** A deal funded in the escrow, taken (creator recorded on-chain), with a deliverable. */
  async function submittedMilestone(): Promise<string> {
    const [created] = await db
      .insert(deals)
      .values({ brandId: brand!.id, title: "Bench deal", budgetUnits: 10_000_000n })
      .returning();
    const fundHash = await funder.writeContract({
      address: d.escrow,
      abi: milestoneEscrowAbi,
      functionName: "fund",
      args: [
        dealRef(created!.id),
        config.treasuryAddress!,
        toSeconds(created!.deadlineAt),
        [10_000_000n],
      ],
    });
    await publicClient().waitForTransactionReceipt({ hash: fundHash });
    const [m] = await db
      .insert(milestones)
      .values({
        dealId: created!.id,
        position: 0,
        title: "Post",
        amountUnits: 10_000_000n,
        requirements: { hashtags: ["#bench"], mentions: [], links: [], criteria: [] },
        status: "submitted",
        revision: 1,
      })
      .returning();
    const check = await syncFunding(db, created!, { funder: funder.account.address });
    if (check.status !== "funded") throw new Error(`bench deal not funded: ${check.status}`);
    const [taken] = await db
      .update(deals)
      .set({ creatorId: creator!.id, creatorWallet: creator!.walletAddress, status: "active" })
      .where(eq(deals.id, created!.id))
      .returning();
    await assignCreatorOnChain(db, taken!);
    await db.insert(deliverables).values({
      milestoneId: m!.id,
      revision: 1,
      // A post of its own: a post pays one milestone (lib/deals/evidence-claims).
      url: `https://x.com/bench/status/${BigInt(`0x${randomUUID().replaceAll("-", "").slice(0, 15)}`)}`,
      text: "A real post #bench with enough words to look like one.",
      submittedBy: creator!.id,
    });
    return m!.id;
  }
  for (let i = 0; i < 100; i++) await submittedMilestone();

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
    `\nMilestone benchmarks — ${ROUNDS} rounds, median; database: ${await dbDriver()}, chain: anvil\n`,
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

  await closeDb();
  await anvil.stop();
  await fresh?.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
