import { eq } from "drizzle-orm";
import { type Address, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as refundRoute from "@/app/api/deals/[id]/refund/route";
import * as settleRoute from "@/app/api/settle/route";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { settlements } from "@/db/schema";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { makeWalletClient } from "@/lib/chain/clients";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { devAccountKey } from "@/lib/chain/dev-accounts";
import { pollReceipt } from "@/lib/chain/sender";
import { dealKey } from "@/lib/escrow/onchain";
import { settleMilestone } from "@/lib/settle/settle";
import { setChainEnv, startOwnChain } from "../helpers/chain-env";
import { brandWallet } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { parties, usdcBalance } from "../settle/fixtures";
import { answering, approve, goodDeliverable, submittedMilestone } from "../verify/fixtures";

// What needs the chain's clock to move: this file runs its own anvil, so jumping weeks
// ahead disturbs no other test file.

let anvil: AnvilInstance;
const restores: Array<() => void> = [];

beforeAll(async () => {
  const own = await startOwnChain();
  anvil = own.anvil;
  restores.push(own.restore);
}, 120_000);

afterAll(async () => {
  for (const r of restores.reverse()) r();
  await anvil?.stop();
});

async function rpc(method: string, params: unknown[] = []) {
  await publicClient().request({ method: method as never, params: params as never });
}

async function timeTravelTo(seconds: bigint) {
  const now = (await publicClient().getBlock()).timestamp;
  if (seconds > now) await rpc("evm_increaseTime", [Number(seconds - now)]);
  await rpc("evm_mine");
}

describe("a relayed release whose signature is renewed while the old one is still valid", () => {
  // Before the escrow, a relayed payout was an EIP-3009 transfer from the treasury: a new
  // authorization signed while the old one was still valid let a relayer holding both
  // execute both — paid twice. Now both are signatures of one escrow release, which the
  // contract performs at most once.
  it("pays once, whichever signature a relayer executes", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId, dealId } = await submittedMilestone(brand, creator, goodDeliverable);
    const db = await getDb();
    const proxy = await startRpcProxy(anvil.rpcUrl);
    const restoreRpc = setChainEnv({ RPC_URL: proxy.url });
    const settle = () =>
      settleMilestone(
        db,
        brand.user,
        { milestoneId, via: "relay" },
        { verifier: { model: answering(approve) } },
      );
    try {
      // 1. Signature A is signed and stored, but the local relayer never gets to send it.
      proxy.failing.add("eth_estimateGas");
      expect((await settle().catch((e) => e)).code).toBe("chain_unavailable");
      proxy.failing.delete("eth_estimateGas");
      const [pending] = await db
        .select()
        .from(settlements)
        .where(eq(settlements.milestoneId, milestoneId));
      const a = pending?.relayAuthorization;
      expect(a?.signature).toMatch(/^0x/);

      // 2. Thirty seconds before A lapses (chain time), settling again renews: B is signed
      //    and recorded, but its broadcast is lost: the answer is that it is on its way (the
      //    route's 202), as it is recorded. A and B are both valid now.
      await timeTravelTo(BigInt(a?.deadline as string) - 30n);
      proxy.failing.add("eth_sendRawTransaction");
      expect((await settle()).outcome).toBe("submitted");
      proxy.failing.delete("eth_sendRawTransaction");
      const [renewed] = await db
        .select()
        .from(settlements)
        .where(eq(settlements.milestoneId, milestoneId));
      const b = renewed?.relayAuthorization;
      expect(b?.signature).not.toBe(a?.signature);

      // 3. A relayer that kept A executes it: the release happens once.
      const rogue = makeWalletClient(
        { chain: chainConfig().known.chain, rpcUrl: anvil.rpcUrl },
        devAccountKey(9),
      );
      const rogueHash = await rogue.writeContract({
        address: chainConfig().escrow as Address,
        abi: milestoneEscrowAbi,
        functionName: "releaseWithSig",
        args: [
          dealKey((await brandWallet(brand)).address, dealId),
          0n,
          46_000_000n,
          pending?.verdictHash as Hex,
          BigInt(a?.deadline as string),
          a?.signature as Hex,
        ],
      });
      expect((await pollReceipt(rogueHash, 30_000))?.status).toBe("success");
      expect(await usdcBalance(wallet)).toBe(46_000_000n);

      // 4. Our B arrives later: it reverts, and the settlement records A's release as paid.
      const result = await settle();
      expect(result.outcome).toBe("paid");
      if (result.outcome !== "paid") return;
      expect(result.settlement.txHash).toBe(rogueHash);
      expect(await usdcBalance(wallet)).toBe(46_000_000n);
      const logs = await publicClient().getLogs({
        address: chainConfig().escrow as Address,
        fromBlock: 0n,
      });
      const releases = parseEventLogs({ abi: milestoneEscrowAbi, logs, eventName: "Released" });
      const key = dealKey((await brandWallet(brand)).address, dealId);
      expect(releases.filter((r) => r.args.dealKey === key)).toHaveLength(1);
    } finally {
      restoreRpc();
      await proxy.close();
    }
  });
});

describe("a deal past its deadline and the grace period", () => {
  it("returns unreleased milestones to the brand; a late settle cannot pay", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId, dealId } = await submittedMilestone(brand, creator, goodDeliverable);
    const funder = await brandWallet(brand);
    const before = await usdcBalance(funder.address);

    const early = await call(refundRoute.POST, { token: brand.token, params: { id: dealId } });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("invalid_state");

    const refundableAt = Date.parse(early.body.error.message.match(/after (\S+) \(/)?.[1] ?? "");
    expect(Number.isFinite(refundableAt)).toBe(true);
    await timeTravelTo(BigInt(Math.floor(refundableAt / 1000) + 60));

    const res = await call(refundRoute.POST, { token: brand.token, params: { id: dealId } });
    expect(res.status).toBe(200);
    expect(res.body.deal.status).toBe("expired");
    expect(res.body.deal.escrow).toMatchObject({ locked: "0.000000", refunded: "50.000000" });
    expect(res.body.deal.milestones[0].status).toBe("refunded");
    expect(await usdcBalance(funder.address)).toBe(before + 50_000_000n);

    // Again: nothing more moves.
    const again = await call(refundRoute.POST, { token: brand.token, params: { id: dealId } });
    expect(again.status).toBe(200);
    expect(await usdcBalance(funder.address)).toBe(before + 50_000_000n);

    const late = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("invalid_state");
    expect(await usdcBalance(wallet)).toBe(0n);
  });
});
