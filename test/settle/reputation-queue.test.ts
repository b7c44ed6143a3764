import { eq, inArray } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { reputationRegistryAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { chainTransactions, settlements } from "@/db/schema";
import { publicClient } from "@/lib/chain/config";
import { readReputation, recordReputation } from "@/lib/chain/reputation";
import { reconcile } from "@/lib/settle/reconcile";
import { drainReputationQueue } from "@/lib/settle/reputation";
import { withChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { submittedMilestone } from "../verify/fixtures";
import { bulkSettle, deliveredMilestones, parties, settlementRows } from "./fixtures";

// The reputation record is not part of the payment: settle answers once the release is
// confirmed, and the record waits in a durable queue (confirmed settlements without
// reputation_tx_hash) that reconcile drains — exactly once per milestone, and a failed
// attempt stays queued.

describe("the reputation queue", () => {
  it("settle answers paid without the record; reconcile records it once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const res = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe("paid");
    expect(res.body.settlement.status).toBe("confirmed");
    expect(res.body.settlement.reputationTxHash).toBeNull();
    expect((await readReputation(wallet)).count).toBe(0);

    const db = await getDb();
    const settlementId = res.body.settlement.id as string;
    const first = await reconcile(db, { settlementId });
    expect(first.reputations).toBe(1);
    const [row] = await settlementRows(milestoneId);
    expect(row?.reputationTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await readReputation(wallet)).count).toBe(1);

    // Drained: nothing more to send for it, however often it runs.
    const again = await Promise.all([
      drainReputationQueue(db, { settlementId }),
      reconcile(db, { settlementId }),
    ]);
    expect(again[0].recorded + again[1].reputations).toBe(0);
    expect((await readReputation(wallet)).count).toBe(1);
  });

  it("a record that fails (node down) stays queued and the next drain writes it", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const res = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(res.body.outcome).toBe("paid");
    const db = await getDb();
    const settlementId = res.body.settlement.id as string;

    const proxy = await startRpcProxy(process.env.RPC_URL as string);
    proxy.failing.add("eth_call");
    try {
      const failed = await withChainEnv({ RPC_URL: proxy.url }, () =>
        drainReputationQueue(db, { settlementId }),
      );
      expect(failed).toEqual({ recorded: 0, failed: 1 });
    } finally {
      await proxy.close();
    }
    expect((await settlementRows(milestoneId))[0]?.reputationTxHash).toBeNull();
    expect((await readReputation(wallet)).count).toBe(0);

    expect(await drainReputationQueue(db, { settlementId })).toEqual({ recorded: 1, failed: 0 });
    expect((await readReputation(wallet)).count).toBe(1);
  });

  it("several queued records go in one registry batch; one already on the registry is skipped there and found; nothing twice", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(6);
    const res = await bulkSettle(brand, ids);
    expect(res.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(
      ids.map(() => "paid"),
    );
    const db = await getDb();
    const rows = await db.select().from(settlements).where(inArray(settlements.milestoneId, ids));
    const first = rows.find((r) => r.milestoneId === ids[0]);
    // One record written outside the queue (its settlement still queued): the batch skips it.
    const alone = await recordReputation(db, {
      wallet,
      scoreBps: first?.scoreBps ?? 0,
      milestoneId: ids[0] as string,
      amountUnits: first?.amountUnits ?? 0n,
    });
    expect(alone.status).toBe("recorded");

    const drained = await drainReputationQueue(db, { dealId: first?.dealId });
    expect(drained).toEqual({ recorded: 6, failed: 0 });
    const after = await db.select().from(settlements).where(inArray(settlements.milestoneId, ids));
    const batchHash = after.find((r) => r.milestoneId === ids[1])?.reputationTxHash as Hex;
    const [batch] = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.hash, batchHash));
    expect(batch?.purpose).toMatch(/^reputation-batch:/);
    for (const r of after)
      expect(r.reputationTxHash, r.milestoneId).toBe(
        r.milestoneId === ids[0] ? alone.txHash : batchHash,
      );
    const receipt = await publicClient().getTransactionReceipt({ hash: batchHash });
    const events = parseEventLogs({ abi: reputationRegistryAbi, logs: receipt.logs });
    expect(events.filter((e) => e.eventName === "SettlementRecorded")).toHaveLength(5);
    expect(events.filter((e) => e.eventName === "RecordSkipped")).toHaveLength(1);
    expect((await readReputation(wallet)).count).toBe(6);

    // Drained: however often it runs, nothing more is written.
    expect(await drainReputationQueue(db, { dealId: first?.dealId })).toEqual({
      recorded: 0,
      failed: 0,
    });
    expect((await reconcile(db, { dealId: first?.dealId })).reputations).toBe(0);
    expect((await readReputation(wallet)).count).toBe(6);
  });
});
