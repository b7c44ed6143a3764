import { inArray } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { type Settlement, settlements } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { sendTransaction } from "@/lib/chain/sender";
import { escrowCall } from "@/lib/escrow/chain";
import { reconcile } from "@/lib/settle/reconcile";
import { ownChainForFile, withChainEnv } from "../helpers/chain-env";
import { submit } from "../verify/fixtures";
import {
  activeDeal,
  bulkSettle,
  chainTxRow,
  deliveredMilestones,
  expectPaidBy,
  releaseName,
  transfersTo,
  usdcBalance,
} from "./fixtures";

// Many releases in one transaction (lib/settle/batch.ts, the escrow's releaseBatch): a bulk
// settle's fresh settlements go out together, each recording the transaction and the log
// index of the Released event that paid it. A milestone the escrow skips is looked up and
// paid once; a batch that reverted is split into single releases; a batch lost with the
// node or removed by a reorg is sent again by reconcile. This file runs its own anvil (with a state file) so it
// can stop the node, freeze its mining and swap the escrow's code without disturbing others.

const chain = ownChainForFile({ stateFile: true });
const { rpc } = chain;

type Item = { milestoneId: string; outcome: string; error?: { code: string } };

async function rowsOf(ids: string[]): Promise<Map<string, Settlement>> {
  const db = await getDb();
  const rows = await db.select().from(settlements).where(inArray(settlements.milestoneId, ids));
  return new Map(rows.map((r) => [r.milestoneId, r]));
}

/**
 * A bulk settle of `count` delivered milestones with nothing mined: it answers `submitted`
 * for each once its budget is spent, all linked to one releaseBatch transaction.
 */
async function sentUnmined(count: number) {
  const { brand, wallet, ids } = await deliveredMilestones(count);
  await rpc("evm_setAutomine", [false]);
  const res = await withChainEnv({ CHAIN_BUDGET_SECONDS: "1" }, () => bulkSettle(brand, ids));
  expect(res.status).toBe(200);
  expect((res.body.results as Item[]).map((r) => r.outcome)).toEqual(ids.map(() => "submitted"));
  const before = await rowsOf(ids);
  const batch = await chainTxRow(before.get(ids[0] as string)?.chainTxId ?? null);
  expect(batch?.purpose).toBe(`release-batch:${count}`);
  expect(new Set([...before.values()].map((s) => s.chainTxId))).toEqual(new Set([batch?.id]));
  return { wallet, ids, batch, dealId: before.get(ids[0] as string)?.dealId as string };
}

/** Each of these settlements paid once, exactly, and reconcile has nothing more to do. */
async function expectPaidOnce(wallet: Hex, paid: Settlement[], dealId: string) {
  const owed = paid.reduce((sum, s) => sum + s.amountUnits, 0n);
  expect(await transfersTo(wallet)).toHaveLength(paid.length);
  expect(await usdcBalance(wallet)).toBe(owed);
  const again = await reconcile(await getDb(), { dealId });
  expect(again.settlements).toMatchObject({ confirmed: 0, stillPending: 0, failed: 0 });
  expect(await transfersTo(wallet)).toHaveLength(paid.length);
}

describe("a bulk settle's releases in one transaction", () => {
  it("pays its fresh milestones in one releaseBatch; one released behind its back is skipped there and paid once", {
    timeout: 120_000,
  }, async () => {
    const { brand, creator, wallet, ids: first } = await deliveredMilestones(10);
    const second = await activeDeal(brand, creator, 10);
    for (const id of second.slice(0, 8)) await submit(creator, id);
    const ids = [...first, ...second];
    const undelivered = new Set(second.slice(8));
    // Three milestones released on-chain by the evaluator's key before the bulk settle sees
    // them: the app still thinks they are payable, the escrow does not.
    const db = await getDb();
    const behind = new Map<string, Hex>();
    for (const id of first.slice(0, 3)) {
      const { key, index } = await releaseName(id);
      const sent = await sendTransaction(db, chainConfig().treasuryKey as Hex, {
        to: chainConfig().escrow as Hex,
        data: escrowCall.release(key, Number(index), 1_000_000n, `0x${"ab".repeat(32)}`),
        purpose: "test:released-behind",
      });
      expect(sent.status).toBe("confirmed");
      behind.set(id, sent.hash as Hex);
    }

    const res = await bulkSettle(brand, ids);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    const results = res.body.results as Item[];
    for (const r of results) {
      if (undelivered.has(r.milestoneId))
        expect(r).toMatchObject({ outcome: "refused", error: { code: "no_deliverable" } });
      else expect(r.outcome, JSON.stringify(r)).toBe("paid");
    }

    const rows = await rowsOf(ids);
    expect(rows.size).toBe(18);
    const batched = [...rows.values()].filter((s) => !behind.has(s.milestoneId));
    // One transaction for the 15 (and the 3 it skipped): a releaseBatch of 18.
    const txIds = new Set(batched.map((s) => s.chainTxId));
    expect(txIds.size).toBe(1);
    const batch = await chainTxRow(batched[0]?.chainTxId ?? null);
    expect(batch?.purpose).toBe("release-batch:18");
    expect(batch?.status).toBe("confirmed");
    const receipt = await publicClient().getTransactionReceipt({ hash: batch?.hash as Hex });
    for (const s of batched) {
      expect(s.txHash).toBe(batch?.hash);
      await expectPaidBy(s, receipt);
    }
    expect(new Set(batched.map((s) => s.logIndex)).size).toBe(15);
    const skipped = parseEventLogs({
      abi: milestoneEscrowAbi,
      logs: receipt.logs,
      eventName: "ReleaseSkipped",
    });
    expect(skipped).toHaveLength(3);
    // The three released behind its back: paid by that transaction, at its Released event.
    for (const [id, hash] of behind) {
      const s = rows.get(id);
      expect(s?.txHash).toBe(hash);
      await expectPaidBy(s, undefined, 1_000_000n);
    }

    // Each milestone paid once: 18 transfers to the creator, the exact sum.
    const owed = batched.reduce((sum, s) => sum + s.amountUnits, 0n) + 3n * 1_000_000n;
    expect(await transfersTo(wallet)).toHaveLength(18);
    expect(await usdcBalance(wallet)).toBe(owed);

    // Reconcile, twice: nothing left to do, nothing paid again.
    const dealIds = new Set([...rows.values()].map((s) => s.dealId));
    for (let round = 0; round < 2; round++)
      for (const dealId of dealIds) {
        const report = await reconcile(db, { dealId });
        expect(report.settlements).toMatchObject({ confirmed: 0, stillPending: 0, failed: 0 });
      }
    expect(await transfersTo(wallet)).toHaveLength(18);
    expect(await usdcBalance(wallet)).toBe(owed);
  });

  it("a batch the chain reverted is split: reconcile releases each milestone on its own, once", {
    timeout: 120_000,
  }, async () => {
    const { wallet, ids, batch, dealId } = await sentUnmined(6);
    const batchId = batch?.id ?? null;

    // The batch is mined while the escrow's code reverts everything: the batch fails.
    const escrow = chainConfig().escrow as Hex;
    const code = await publicClient().getCode({ address: escrow });
    await rpc("anvil_setCode", [escrow, "0x60006000fd"]);
    await rpc("evm_mine");
    await rpc("anvil_setCode", [escrow, code]);
    await rpc("evm_setAutomine", [true]);
    const reverted = await publicClient().getTransactionReceipt({ hash: batch?.hash as Hex });
    expect(reverted.status).toBe("reverted");
    expect(await transfersTo(wallet)).toHaveLength(0);

    const report = await reconcile(await getDb(), { dealId });
    expect(report.settlements).toMatchObject({ confirmed: 6, failed: 0 });
    expect((await chainTxRow(batchId))?.status).toBe("failed");
    const after = await rowsOf(ids);
    for (const s of after.values()) {
      // Its own release now, recorded with its log.
      expect(s.chainTxId).not.toBe(batchId);
      expect((await chainTxRow(s.chainTxId))?.purpose).toBe(`settlement:${s.id}`);
      await expectPaidBy(s);
    }
    await expectPaidOnce(wallet, [...after.values()], dealId);
  });

  it("the node dies between sending the batch and its receipt: reconcile sends the same batch again and pays each once", {
    timeout: 120_000,
  }, async () => {
    const { wallet, ids, batch, dealId } = await sentUnmined(6);

    // The node dies with the batch unmined (its pool is not persisted), and comes back.
    await chain.anvil.stop();
    const db = await getDb();
    const down = await reconcile(db, { dealId });
    expect(down.settlements).toMatchObject({ confirmed: 0, stillPending: 6 });
    await chain.restart();
    expect(await transfersTo(wallet)).toHaveLength(0);

    const report = await reconcile(db, { dealId });
    expect(report.settlements).toMatchObject({ confirmed: 6, failed: 0 });
    const after = await rowsOf(ids);
    const receipt = await publicClient().getTransactionReceipt({ hash: batch?.hash as Hex });
    for (const s of after.values()) {
      // The same signed batch: same transaction, each at its own Released event.
      expect(s.chainTxId).toBe(batch?.id);
      expect(s.txHash).toBe(batch?.hash);
      await expectPaidBy(s, receipt);
    }
    await expectPaidOnce(wallet, [...after.values()], dealId);
  });

  it("a batch a reorg removes is sent again by reconcile, and pays each once at depth 2", {
    timeout: 120_000,
  }, async () => {
    const deep = {
      CHAIN_CONFIRMATIONS: "2",
      TX_RECEIPT_TIMEOUT_SECONDS: "1",
      CHAIN_BUDGET_SECONDS: "1",
    };
    const { brand, wallet, ids } = await deliveredMilestones(4);
    // Mined at once (automine), not final with nothing on top: each item is submitted.
    const res = await withChainEnv(deep, () => bulkSettle(brand, ids));
    expect((res.body.results as Item[]).map((r) => r.outcome)).toEqual(ids.map(() => "submitted"));
    const before = await rowsOf(ids);
    const batch = await chainTxRow(before.get(ids[0] as string)?.chainTxId ?? null);
    expect(batch?.purpose).toBe("release-batch:4");
    expect(batch?.blockNumber).not.toBeNull();
    const dealId = before.get(ids[0] as string)?.dealId as string;

    // The block holding it goes away (only it: the deal's assignment below it, by the same
    // key, stays), and the payments with it.
    await rpc("anvil_reorg", [1, []]);
    expect(await transfersTo(wallet)).toHaveLength(0);
    const db = await getDb();
    const again = await withChainEnv(deep, () => reconcile(db, { dealId }));
    expect(again.settlements).toMatchObject({ confirmed: 0, stillPending: 4 });
    const resent = await chainTxRow(batch?.id ?? null);
    expect(resent?.hash).toBe(batch?.hash);
    expect(resent?.blockHash).not.toBe(batch?.blockHash);

    // Two blocks on top: final; each paid by the same batch, at its own Released event.
    await rpc("anvil_mine", ["0x2"]);
    const done = await withChainEnv(deep, () => reconcile(db, { dealId }));
    expect(done.settlements).toMatchObject({ confirmed: 4, failed: 0 });
    const after = await rowsOf(ids);
    const receipt = await publicClient().getTransactionReceipt({ hash: batch?.hash as Hex });
    for (const s of after.values()) {
      expect(s.chainTxId).toBe(batch?.id);
      await expectPaidBy(s, receipt);
    }
    await withChainEnv(deep, () => expectPaidOnce(wallet, [...after.values()], dealId));
  });
});
