import { eq, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { chainTransactions, type Settlement, settlements } from "@/db/schema";
import { chainConfig } from "@/lib/chain/config";
import { sendTransaction } from "@/lib/chain/sender";
import { escrowCall } from "@/lib/escrow/chain";
import { log } from "@/lib/log";
import { currentRequestId, withRequestId } from "@/lib/request-id";
import { payClaimed } from "@/lib/settle/batch";
import { estimateRelease } from "@/lib/settle/payment";
import { reconcile } from "@/lib/settle/reconcile";
import { ownChainForFile, setChainEnv } from "../helpers/chain-env";
import { startRpcProxy } from "../helpers/rpc-proxy";
import {
  chainTxRow,
  claimDelivered,
  deliveredMilestones,
  releaseName,
  TEST_VERDICT,
  transfersTo,
} from "./fixtures";

// What concurrent single settles grouped into one release (lib/settle/batch.ts, ReleaseGroups)
// must not do to each other, found by an attacker's review of the group commit: a settle
// queued behind another's release whose lease was lost meanwhile sends nothing of its own; a
// release held up at the node does not hold the settles queued behind it; each settle answers
// within its own budget, and its work is logged under its own request. Own anvil, so the RPC
// proxy's holds disturb nobody.

const chain = ownChainForFile();

async function row(id: string): Promise<Settlement> {
  const db = await getDb();
  const [r] = await db.select().from(settlements).where(eq(settlements.id, id));
  return r as Settlement;
}

describe("settles grouped into one release", () => {
  it("a settle whose lease ran out while it was queued behind another's release (reconcile paid it meanwhile) sends no second release", {
    timeout: 60_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(2);
    const db = await getDb();
    const proxy = await startRpcProxy(chainConfig().rpcUrl);
    const restoreEnv = setChainEnv({ RPC_URL: proxy.url });
    try {
      const [a, b] = await claimDelivered(brand, ids);
      if (!a || !b) throw new Error("claims");
      // b's gas estimated while it was claimed, as settleMilestone does.
      const estimate = estimateRelease(b.target, b.settlement.amountUnits, TEST_VERDICT);
      await estimate?.gas;

      // b's lease runs out and reconcile pays it on its own (as batch-faults.test does for a
      // bulk's queued item)...
      await db
        .update(settlements)
        .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
        .where(eq(settlements.id, b.settlement.id));
      const rep = await reconcile(db, { settlementId: b.settlement.id });
      expect(rep.settlements.confirmed).toBe(1);
      const paidByReconcile = await row(b.settlement.id);
      expect(paidByReconcile.status).toBe("confirmed");

      // ...while b's settle waits behind a's release, being recorded (its node call is slow).
      const held = proxy.hold("eth_estimateGas");
      const paidA = payClaimed(db, a, { waitUntil: Date.now() + 10_000 });
      await held.arrived;
      const paidB = payClaimed(db, b, { waitUntil: Date.now() + 10_000, estimate });
      // Its turn comes (GROUP_WAIT_MS, whatever a's node call does): it no longer holds b.
      await expect(paidB).rejects.toMatchObject({ code: "settlement_in_progress" });
      held.release();
      expect((await paidA).status).toBe("confirmed");

      // Paid once; b's settle sent nothing, and b stays linked to the transaction that paid it.
      expect(await transfersTo(wallet)).toHaveLength(2);
      const sends = await db
        .select()
        .from(chainTransactions)
        .where(eq(chainTransactions.purpose, `settlement:${b.settlement.id}`));
      expect(sends).toHaveLength(1);
      const finalB = await row(b.settlement.id);
      expect(finalB.status).toBe("confirmed");
      expect(finalB.chainTxId).toBe(paidByReconcile.chainTxId);
      expect((await chainTxRow(finalB.chainTxId))?.hash).toBe(finalB.txHash);
    } finally {
      restoreEnv();
      await proxy.close();
    }
  });

  it("a grouped settle's work is logged under its own request, not the one whose release went first", {
    timeout: 60_000,
  }, async () => {
    const { brand, ids } = await deliveredMilestones(3);
    const [a, b, c] = await claimDelivered(brand, ids);
    if (!a || !b || !c) throw new Error("claims");
    const db = await getDb();
    // c released behind the app's back: its batch skips it and it is retried alone (a warning).
    const { key, index } = await releaseName(ids[2] as string);
    await sendTransaction(db, chainConfig().treasuryKey as Hex, {
      to: chainConfig().escrow as Hex,
      data: escrowCall.release(key, Number(index), 1_000_000n, TEST_VERDICT),
      purpose: "test:released-behind",
    });
    const seen: Array<{ msg: string; settlementId?: unknown; requestId?: string }> = [];
    const spy = vi.spyOn(log, "warn").mockImplementation((msg, fields) => {
      seen.push({ msg, settlementId: fields?.settlementId, requestId: currentRequestId() });
    });
    try {
      const waitUntil = Date.now() + 10_000;
      await Promise.allSettled([
        withRequestId("req_aaaaaaaa", () => payClaimed(db, a, { waitUntil })),
        withRequestId("req_bbbbbbbb", () => payClaimed(db, b, { waitUntil })),
        withRequestId("req_cccccccc", () => payClaimed(db, c, { waitUntil })),
      ]);
    } finally {
      spy.mockRestore();
    }
    const retried = seen.find((s) => s.settlementId === c.settlement.id);
    expect(retried?.msg).toMatch(/retrying it alone/);
    expect(retried?.requestId).toBe("req_cccccccc");
  });

  it("a settle does not wait on another request's node call: queued behind a release whose estimate hangs, it records its own", {
    timeout: 60_000,
  }, async () => {
    const { brand, ids } = await deliveredMilestones(2);
    const db = await getDb();
    const proxy = await startRpcProxy(chainConfig().rpcUrl);
    const restoreEnv = setChainEnv({ RPC_URL: proxy.url });
    try {
      const [a, b] = await claimDelivered(brand, ids);
      if (!a || !b) throw new Error("claims");
      const estimate = estimateRelease(b.target, b.settlement.amountUnits, TEST_VERDICT);
      await estimate?.gas;
      // a's estimate hangs at the node (viem gives up after 10 s, then retries).
      const held = proxy.hold("eth_estimateGas");
      const paidA = payClaimed(db, a, { waitUntil: Date.now() + 10_000 });
      await held.arrived;
      // b's budget is 2 s; every node call it needs is answered at once: it is paid while
      // a's estimate still hangs.
      const paidB = await payClaimed(db, b, { waitUntil: Date.now() + 2_000, estimate });
      expect(paidB.status).toBe("confirmed");
      expect(paidB.chainTxId).not.toBeNull();
      held.release();
      expect((await paidA).status).toBe("confirmed");
    } finally {
      restoreEnv();
      await proxy.close();
    }
  });

  it("a grouped settle waits for its receipt within its own budget, not the shortest one in its group", {
    timeout: 60_000,
  }, async () => {
    const { brand, ids } = await deliveredMilestones(3);
    const [a, b, c] = await claimDelivered(brand, ids);
    if (!a || !b || !c) throw new Error("claims");
    const db = await getDb();
    // A chain with a block every second (as a real one), not one per transaction.
    await chain.rpc("evm_setAutomine", [false]);
    await chain.rpc("evm_setIntervalMining", [1]);
    try {
      const paidA = payClaimed(db, a, { waitUntil: Date.now() + 10_000 });
      // b's request has spent its budget (it queued behind a slow recording); c's is whole.
      const paidB = payClaimed(db, b, { waitUntil: Date.now() }).catch((e) => e);
      const paidC = payClaimed(db, c, { waitUntil: Date.now() + 10_000 }).then(
        (s) => s.status,
        (e) => (e as { code?: string }).code,
      );
      await Promise.allSettled([paidA, paidB]);
      // b answers `submitted` at once, its release sent; c waits for the block and is paid.
      expect(await paidB).toMatchObject({ code: "chain_unavailable" });
      expect(await paidC).toBe("confirmed");
    } finally {
      await chain.rpc("evm_setIntervalMining", [0]);
      await chain.rpc("evm_setAutomine", [true]);
    }
  });
});
