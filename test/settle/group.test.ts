import { inArray } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { describe, expect, it, vi } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { type Settlement, settlements } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { sendTransaction } from "@/lib/chain/sender";
import { escrowCall } from "@/lib/escrow/chain";
import { payClaimed, releasesBusy } from "@/lib/settle/batch";
import { reconcile } from "@/lib/settle/reconcile";
import { drainReputationQueue } from "@/lib/settle/reputation";
import { ownChainForFile } from "../helpers/chain-env";
import { call } from "../helpers/http";
import {
  chainTxRow,
  claimDelivered,
  deliveredMilestones,
  expectPaidBy,
  releaseName,
  TEST_VERDICT,
  transfersTo,
  usdcBalance,
} from "./fixtures";

// Concurrent single settles of one process share release transactions (lib/settle/batch.ts,
// ReleaseGroups: group commit). The first release goes out alone, as it always did; the ones
// claimed while it is being recorded go out together in one releaseBatch. Each milestone is
// still paid once, at its own Released event, whatever else is in its transaction: a
// milestone released behind the app's back is skipped there and found; a group whose node
// dies before its receipt is finished by reconcile with the same signed bytes; concurrent
// repeats of the same settles pay nothing twice. Own anvil (with a state file), so the node
// can be stopped.

const chain = ownChainForFile({ stateFile: true });

async function rowsOf(ids: string[]): Promise<Settlement[]> {
  const db = await getDb();
  const rows = await db.select().from(settlements).where(inArray(settlements.milestoneId, ids));
  return ids.map((id) => rows.find((r) => r.milestoneId === id) as Settlement);
}

describe("concurrent single settles in one process", () => {
  it("the first release goes alone, the ones claimed meanwhile in one releaseBatch; one released behind the app's back is skipped there and paid once", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(8);
    const claimed = await claimDelivered(brand, ids);
    // One of the later ones released on-chain by the evaluator's key behind the app's back.
    const db = await getDb();
    const behindId = ids[4] as string;
    const { key, index } = await releaseName(behindId);
    const behind = await sendTransaction(db, chainConfig().treasuryKey as Hex, {
      to: chainConfig().escrow as Hex,
      data: escrowCall.release(key, Number(index), 1_000_000n, TEST_VERDICT),
      purpose: "test:released-behind",
    });
    expect(behind.status).toBe("confirmed");

    // All eight asked for in the same moment, as concurrent requests would.
    const waitUntil = Date.now() + 10_000;
    expect(releasesBusy(db)).toBe(false);
    const paying = claimed.map((c) => payClaimed(db, c, { waitUntil }));
    // A release being recorded: a settle claimed now skips estimating a release of its own.
    expect(releasesBusy(db)).toBe(true);
    const paid = await Promise.all(paying);
    expect(paid.map((s) => s.status)).toEqual(ids.map(() => "confirmed"));
    await vi.waitFor(() => expect(releasesBusy(db)).toBe(false));

    const rows = await rowsOf(ids);
    const [first, ...rest] = rows;
    expect((await chainTxRow(first?.chainTxId ?? null))?.purpose).toBe(`settlement:${first?.id}`);
    await expectPaidBy(first);
    const grouped = rest.filter((s) => s.milestoneId !== behindId);
    const batch = await chainTxRow(grouped[0]?.chainTxId ?? null);
    expect(batch?.purpose).toBe("release-batch:7");
    expect(batch?.status).toBe("confirmed");
    const receipt = await publicClient().getTransactionReceipt({ hash: batch?.hash as Hex });
    for (const s of grouped) {
      expect(s.chainTxId).toBe(batch?.id);
      await expectPaidBy(s, receipt);
    }
    expect(new Set(grouped.map((s) => s.logIndex)).size).toBe(6);
    expect(
      parseEventLogs({ abi: milestoneEscrowAbi, logs: receipt.logs, eventName: "ReleaseSkipped" }),
    ).toHaveLength(1);
    const found = rows.find((s) => s.milestoneId === behindId);
    expect(found?.txHash).toBe(behind.hash);
    await expectPaidBy(found, undefined, 1_000_000n);

    // Eight transfers, the exact sum; reconcile has nothing left to do and pays nothing again.
    expect(await transfersTo(wallet)).toHaveLength(8);
    expect(await usdcBalance(wallet)).toBe(8_000_000n);
    const again = await reconcile(db, { dealId: first?.dealId });
    expect(again.settlements).toMatchObject({ confirmed: 0, stillPending: 0, failed: 0 });
    expect(await transfersTo(wallet)).toHaveLength(8);
  });

  it("the node dies with a group's releases unmined: reconcile sends the same bytes and pays each once", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(5);
    const claimed = await claimDelivered(brand, ids);
    const db = await getDb();
    await chain.rpc("evm_setAutomine", [false]);
    const waitUntil = Date.now() + 1_000;
    const outcomes = await Promise.allSettled(claimed.map((c) => payClaimed(db, c, { waitUntil })));
    // Sent, not mined within the budget: each is `submitted`, the first alone, four together.
    for (const o of outcomes) {
      expect(o.status).toBe("rejected");
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: "chain_unavailable" });
    }
    const sent = await rowsOf(ids);
    expect(sent.map((s) => s.status)).toEqual(ids.map(() => "submitted"));
    const batch = await chainTxRow(sent[1]?.chainTxId ?? null);
    expect(batch?.purpose).toBe("release-batch:4");
    expect(new Set(sent.slice(1).map((s) => s.chainTxId))).toEqual(new Set([batch?.id]));

    // The node dies (its pool is not persisted) and comes back without them.
    await chain.anvil.stop();
    const dealId = sent[0]?.dealId as string;
    const down = await reconcile(db, { dealId });
    expect(down.settlements).toMatchObject({ confirmed: 0, stillPending: 5 });
    await chain.restart();
    expect(await transfersTo(wallet)).toHaveLength(0);

    const report = await reconcile(db, { dealId });
    expect(report.settlements).toMatchObject({ confirmed: 5, failed: 0 });
    const after = await rowsOf(ids);
    for (const [i, s] of after.entries()) {
      expect(s.chainTxId).toBe(sent[i]?.chainTxId);
      await expectPaidBy(s);
    }
    expect(await transfersTo(wallet)).toHaveLength(5);
    expect(await usdcBalance(wallet)).toBe(5_000_000n);
    const again = await reconcile(db, { dealId });
    expect(again.settlements).toMatchObject({ confirmed: 0, stillPending: 0, failed: 0 });
    expect(await transfersTo(wallet)).toHaveLength(5);
  });

  it("12 milestones settled by 3 concurrent requests each over HTTP: each paid once, every answer its own; reputation recorded once each", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(12);
    const answers = await Promise.all(
      ids.flatMap((milestoneId) =>
        [0, 1, 2].map(() =>
          call(settleRoute.POST, { token: brand.token, body: { milestoneId } }).then((res) => ({
            milestoneId,
            res,
          })),
        ),
      ),
    );
    for (const milestoneId of ids) {
      const mine = answers.filter((a) => a.milestoneId === milestoneId).map((a) => a.res);
      // One request paid it; the others were told it is under way or already paid.
      expect(mine.filter((r) => r.status === 200 && r.body.outcome === "paid")).toHaveLength(1);
      for (const r of mine.filter((r) => r.status !== 200))
        expect(r.status === 409 && ["settlement_in_progress", "already_settled"]).toContain(
          r.body.error?.code,
        );
    }
    const rows = await rowsOf(ids);
    for (const s of rows) await expectPaidBy(s);
    // Fewer transactions than milestones is what grouping is for, but how many form depends
    // on timing; what must hold is one payment each.
    expect(new Set(rows.map((s) => s.chainTxId)).size).toBeLessThanOrEqual(12);
    expect(await transfersTo(wallet)).toHaveLength(12);
    // At the verdict's score (each milestone is 1 USDC), exactly.
    expect(await usdcBalance(wallet)).toBe(rows.reduce((sum, s) => sum + s.amountUnits, 0n));

    const db = await getDb();
    const dealId = rows[0]?.dealId as string;
    const drained = await drainReputationQueue(db, { dealId });
    expect(drained.failed).toBe(0);
    const recorded = await rowsOf(ids);
    expect(recorded.every((s) => s.reputationTxHash)).toBe(true);
    expect((await drainReputationQueue(db, { dealId })).recorded).toBe(0);
    const report = await reconcile(db, { dealId });
    expect(report.settlements).toMatchObject({ confirmed: 0, stillPending: 0, failed: 0 });
    expect(await transfersTo(wallet)).toHaveLength(12);
  });
});
