import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as relayStatusRoute from "@/app/api/relay/status/route";
import * as settleRoute from "@/app/api/settle/route";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { settlements } from "@/db/schema";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { makePublicClient, makeWalletClient } from "@/lib/chain/clients";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { devAccountKey } from "@/lib/chain/dev-accounts";
import { dealKey } from "@/lib/escrow/onchain";
import { reconcile } from "@/lib/settle/reconcile";
import { settleMilestone } from "@/lib/settle/settle";
import { setChainEnv, startOwnChain } from "../helpers/chain-env";
import { brandWallet } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { answering, approve, goodDeliverable, submittedMilestone } from "../verify/fixtures";
import { parties, transfersTo, usdcBalance } from "./fixtures";

// Relayed (gasless) settlement: the evaluator signs the escrow release (EIP-712) and a
// relayer submits releaseWithSig and pays the gas. Locally the relayer is a sponsor account on
// anvil; in production a Gelato-style API, tested here against a local fake server
// that really submits the call to a chain.

describe("relay via the local sponsor account", () => {
  it("releases from the escrow with the evaluator's signature while the sponsor pays the gas", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId, dealId } = await submittedMilestone(brand, creator, goodDeliverable);
    const config = chainConfig();
    const sponsor = privateKeyToAccount(config.sponsorKey as Hex).address;
    const treasury = config.treasuryAddress as `0x${string}`;
    const escrow = config.escrow as `0x${string}`;
    const treasuryEth = await publicClient().getBalance({ address: treasury });
    const treasuryUsdc = await usdcBalance(treasury);
    const escrowUsdc = await usdcBalance(escrow);

    const result = await settleMilestone(
      await getDb(),
      brand.user,
      { milestoneId, via: "relay" },
      { verifier: { model: answering(approve) } },
    );
    expect(result.outcome).toBe("paid");
    if (result.outcome !== "paid") return;
    expect(result.settlement.via).toBe("relay");
    const receipt = await publicClient().getTransactionReceipt({
      hash: result.settlement.txHash as Hex,
    });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(sponsor.toLowerCase());
    // 50 USDC locked; 0.92 → 46 to the creator, 4 back to the brand, out of the escrow.
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
    expect(escrowUsdc - (await usdcBalance(escrow))).toBe(50_000_000n);
    expect(await usdcBalance(treasury)).toBe(treasuryUsdc); // the treasury pays no payout
    // The settle answer does not wait for the reputation record: it is queued, and the
    // treasury has spent no gas at all so far.
    expect(result.settlement.reputationTxHash).toBeNull();
    expect(await publicClient().getBalance({ address: treasury })).toBe(treasuryEth);
    // Reconcile drains the queue: the treasury's only gas is that attestation (it is the
    // registry's attestor).
    const db = await getDb();
    expect((await reconcile(db, { settlementId: result.settlement.id })).reputations).toBe(1);
    const [queued] = await db
      .select()
      .from(settlements)
      .where(eq(settlements.id, result.settlement.id));
    const attest = await publicClient().getTransactionReceipt({
      hash: queued?.reputationTxHash as Hex,
    });
    const spent = treasuryEth - (await publicClient().getBalance({ address: treasury }));
    expect(spent).toBe(attest.gasUsed * attest.effectiveGasPrice);
    const released = parseEventLogs({
      abi: milestoneEscrowAbi,
      logs: receipt.logs,
      eventName: "Released",
    });
    expect(released).toHaveLength(1);
    expect(released[0]?.args).toMatchObject({
      dealKey: dealKey((await brandWallet(brand)).address, dealId),
      payout: 46_000_000n,
      refund: 4_000_000n,
      verdictHash: result.settlement.verdictHash,
    });
  });

  it("reports the local relayer as configured", async () => {
    const res = await call(relayStatusRoute.GET, { path: "/api/relay/status" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      configured: true,
      provider: "local",
      chainId: 31337,
      supported: true,
    });
    expect(res.body.sponsor).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const other = await call(relayStatusRoute.GET, { path: "/api/relay/status?chainId=8453" });
    expect(other.body).toMatchObject({ configured: true, supported: false, chainId: 8453 });
    const bad = await call(relayStatusRoute.GET, { path: "/api/relay/status?chainId=abc" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });
});

describe("relay via a Gelato-style API (local fake relayer on a Base Sepolia fork-alike)", () => {
  let anvil: AnvilInstance;
  let server: Server;
  const apiKey = "test-sponsor-key";
  const calls: Array<{ chainId: string; target: string; sponsorApiKey: string }> = [];

  let restore: () => void = () => {};

  beforeAll(async () => {
    const own = await startOwnChain({ chainId: baseSepolia.id });
    anvil = own.anvil;
    // The fake relayer: submits the sponsored call with its own key, reports task status
    // from the chain, the way the real API does.
    const chainCfg = { chain: baseSepolia, rpcUrl: anvil.rpcUrl };
    const relayerWallet = makeWalletClient(chainCfg, devAccountKey(9));
    const relayerClient = makePublicClient(chainCfg);
    const tasks = new Map<string, Hex>();
    server = createServer(async (req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      let raw = "";
      for await (const chunk of req) raw += chunk;
      if (req.method === "POST" && req.url === "/relays/v2/sponsored-call") {
        const body = JSON.parse(raw);
        calls.push(body);
        if (body.sponsorApiKey !== apiKey) return send(401, { message: "bad key" });
        const hash = await relayerWallet.sendTransaction({ to: body.target, data: body.data });
        const taskId = `task-${tasks.size + 1}`;
        tasks.set(taskId, hash);
        return send(201, { taskId });
      }
      const m = /^\/tasks\/status\/(.+)$/.exec(req.url ?? "");
      if (req.method === "GET" && m?.[1]) {
        const hash = tasks.get(decodeURIComponent(m[1]));
        if (!hash) return send(404, { message: "no task" });
        const receipt = await relayerClient.getTransactionReceipt({ hash }).catch(() => null);
        const taskState = !receipt
          ? "ExecPending"
          : receipt.status === "success"
            ? "ExecSuccess"
            : "ExecReverted";
        return send(200, { task: { taskId: m[1], taskState, transactionHash: hash } });
      }
      send(404, { message: "not found" });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;

    const relayEnv = setChainEnv({
      CHAIN: "base-sepolia",
      // An anvil that mines only what is sent: no blocks would come to confirm on top.
      CHAIN_CONFIRMATIONS: "0",
      RELAY_PROVIDER: "gelato",
      RELAY_API_URL: `http://127.0.0.1:${port}`,
      RELAY_API_KEY: apiKey,
    });
    restore = () => {
      relayEnv();
      own.restore();
    };
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await anvil?.stop();
    restore();
  });

  it("is reported configured for Base Sepolia without exposing the key", async () => {
    const res = await call(relayStatusRoute.GET, { path: "/api/relay/status" });
    expect(res.body).toMatchObject({
      configured: true,
      provider: "gelato",
      chainId: 84532,
      supported: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(apiKey);
  });

  it("settles through the relayer and confirms on-chain", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
    const result = await settleMilestone(
      await getDb(),
      brand.user,
      { milestoneId, via: "relay" },
      { verifier: { model: answering(approve) } },
    );
    expect(result.outcome).toBe("paid");
    if (result.outcome !== "paid") return;
    expect(result.settlement.chainId).toBe(84532);
    expect(result.settlement.explorerUrl).toBe(
      `https://sepolia.basescan.org/tx/${result.settlement.txHash}`,
    );
    expect(calls.at(-1)).toMatchObject({ chainId: "84532", sponsorApiKey: apiKey });
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it('accepts the original interface\'s `via: "relayer"` as relay', async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
    const res = await call(settleRoute.POST, {
      token: brand.token,
      body: { milestoneId, via: "relayer" },
    });
    expect(res.status).toBe(200);
    expect(res.body.settlement.via).toBe("relay");
    expect(await usdcBalance(wallet)).toBeGreaterThan(0n);
  });

  it("answers 503 not_configured for relay when the relayer is not set up", async () => {
    const restoreKey = setChainEnv({ RELAY_API_KEY: undefined });
    try {
      const { brand, creator } = await parties();
      const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
      const res = await call(settleRoute.POST, {
        token: brand.token,
        body: { milestoneId, via: "relay" },
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("not_configured");
    } finally {
      restoreKey();
    }
  });
});
