import { eq } from "drizzle-orm";
import { type Hex, isAddressEqual, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealsRoute from "@/app/api/deals/route";
import { milestoneEscrowAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { deals } from "@/db/schema";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { publicClient, requireEscrow } from "@/lib/chain/config";
import { getChainTransaction } from "@/lib/chain/sender";
import { escrowKey, readEscrowDeal } from "@/lib/escrow/chain";
import { reconcile } from "@/lib/settle/reconcile";
import { settleMilestone } from "@/lib/settle/settle";
import { startOwnChain, withChainEnv } from "../helpers/chain-env";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import {
  answering,
  approve,
  goodDeliverable,
  launchRules,
  submit,
  submittedMilestone,
} from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// Confirmation depth and reorgs, on this file's own anvil (it rewrites its chain): with a
// depth of 2, a mined release is not a payment until two blocks are on top of it; a reorg
// (anvil_reorg) or a rollback (anvil_rollback) that removes it before then is seen by
// reconcile — no receipt, or the chain's block at its height is another — and the same
// signed release is sent again. In the end the creator is paid exactly once. The same for
// the creator's on-chain assignment, at depth 0 too (final at once, then found gone).

let anvil: AnvilInstance;
let restore: () => void;

beforeAll(async () => {
  const own = await startOwnChain();
  anvil = own.anvil;
  restore = own.restore;
});

afterAll(async () => {
  await anvil?.stop();
  restore?.();
});

async function rpc(method: string, params: unknown[] = []) {
  const res = await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const receipt = (hash: string) =>
  publicClient()
    .getTransactionReceipt({ hash: hash as Hex })
    .catch(() => null);

const deep = { CHAIN_CONFIRMATIONS: "2", TX_RECEIPT_TIMEOUT_SECONDS: "1" };

describe("a release a reorg removes", () => {
  it.each([
    ["anvil_reorg", [2, []]],
    ["anvil_rollback", [2]],
  ])(
    "%s: reconcile sends it again, and it is paid once at depth 2",
    {
      timeout: 90_000,
    },
    async (method, params) => {
      const { brand, creator, wallet } = await parties();
      const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
      const db = await getDb();

      // Mined at once (automine), but with nothing on top it is not final: not paid yet.
      const sent = await withChainEnv(deep, () =>
        settleMilestone(
          db,
          brand.user,
          { milestoneId, via: "direct" },
          { verifier: { model: answering(approve) } },
        ),
      );
      expect(sent.outcome).toBe("submitted");
      const [s] = await settlementRows(milestoneId);
      expect(s?.status).toBe("submitted");
      const mined = await getChainTransaction(db, s?.chainTxId as string);
      expect(mined?.status).toBe("submitted");
      expect(mined?.blockNumber).not.toBeNull();
      const first = await receipt(mined?.hash as string);
      expect(first?.blockHash).toBe(mined?.blockHash);
      expect(await usdcBalance(wallet)).toBe(46_000_000n);
      // One block on top: still short of the depth, reconcile leaves it unconfirmed.
      await rpc("anvil_mine", ["0x1"]);
      const shallow = await withChainEnv(deep, () => reconcile(db, { settlementId: s?.id }));
      expect(shallow.settlements.stillPending).toBe(1);
      expect((await settlementRows(milestoneId))[0]?.status).toBe("submitted");

      // The blocks holding the release go away; so does the payment.
      await rpc(method, params);
      expect(await receipt(mined?.hash as string)).toBeNull();
      expect(await usdcBalance(wallet)).toBe(0n);

      // Reconcile sees it gone and sends the same signed release again: mined, not yet final.
      const again = await withChainEnv(deep, () => reconcile(db, { settlementId: s?.id }));
      expect(again.settlements.stillPending).toBe(1);
      const resent = await getChainTransaction(db, mined?.id as string);
      expect(resent?.hash).toBe(mined?.hash);
      expect(resent?.status).toBe("submitted");
      expect(resent?.blockHash).not.toBe(mined?.blockHash);
      expect((await receipt(mined?.hash as string))?.status).toBe("success");

      // Two blocks on top: final, paid.
      await rpc("anvil_mine", ["0x2"]);
      const done = await withChainEnv(deep, () => reconcile(db, { settlementId: s?.id }));
      expect(done.settlements.confirmed).toBe(1);
      const [paid] = await settlementRows(milestoneId);
      expect(paid?.status).toBe("confirmed");
      expect(paid?.txHash).toBe(mined?.hash);
      const final = await getChainTransaction(db, mined?.id as string);
      expect(final?.status).toBe("confirmed");
      expect(await transfersTo(wallet)).toHaveLength(1);
      expect(await usdcBalance(wallet)).toBe(46_000_000n);
    },
  );
});

/** The deal's row as stored. */
async function dealRow(dealId: string) {
  const db = await getDb();
  const [row] = await db.select().from(deals).where(eq(deals.id, dealId));
  if (!row) throw new Error(`no deal ${dealId}`);
  return row;
}

/** The escrow's CreatorAssigned events for this deal, on the chain as it is now. */
async function assignments(dealId: string) {
  const key = escrowKey(await dealRow(dealId));
  const logs = await publicClient().getLogs({
    address: requireEscrow(),
    fromBlock: 0n,
    toBlock: "latest",
  });
  return parseEventLogs({ abi: milestoneEscrowAbi, logs, eventName: "CreatorAssigned" }).filter(
    (l) => l.args.dealKey === key,
  );
}

/**
 * A funded deal of one 50 USDC milestone, taken by `creator` (the route's own answer), its
 * assignment sent under `acceptEnv`.
 */
async function takenDeal(p: Awaited<ReturnType<typeof parties>>, acceptEnv = {}) {
  const created = await call(dealsRoute.POST, {
    token: p.brand.token,
    body: {
      title: "A reorged assignment",
      platform: "instagram",
      milestones: [{ title: "Launch Reel", amount: 50, requirements: launchRules }],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const dealId: string = created.body.deal.id;
  await fundDeal(p.brand, dealId);
  const accepted = await withChainEnv(acceptEnv, () =>
    call(acceptRoute.POST, { params: { id: dealId }, token: p.creator.token }),
  );
  return { dealId, milestoneId: created.body.deal.milestones[0].id as string, accepted };
}

describe("a creator assignment a reorg removes", () => {
  it.each([
    ["anvil_reorg", [1, []]],
    ["anvil_rollback", [1]],
  ])(
    "%s at depth 0: reconcile finds the creator gone, assigns again once, and the deal pays",
    { timeout: 90_000 },
    async (method, params) => {
      const p = await parties();
      const db = await getDb();
      const { dealId, milestoneId, accepted } = await takenDeal(p);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const taken = await dealRow(dealId);
      expect(taken.assignedAt).not.toBeNull();
      const tx = await getChainTransaction(db, taken.assignTxId as string);
      expect(tx?.status).toBe("confirmed");
      const key = escrowKey(taken);
      expect((await readEscrowDeal(key)).creator).toBe(p.wallet);

      // The block holding the assignment goes away (final at once at depth 0).
      await rpc(method, params);
      expect(await receipt(tx?.hash as string)).toBeNull();
      expect((await readEscrowDeal(key)).creator).toBeNull();

      const before = new Date();
      const report = await reconcile(db, { dealId });
      expect(report.escrow.assigned).toBe(1);
      expect(report.escrow.failed).toBe(0);
      const creator = (await readEscrowDeal(key)).creator;
      expect(creator && isAddressEqual(creator, p.wallet)).toBe(true);
      expect(await assignments(dealId)).toHaveLength(1);
      const again = await dealRow(dealId);
      expect(again.assignedAt?.getTime()).toBeGreaterThanOrEqual(before.getTime());
      // The same signed assignment, mined again in another block.
      const resent = await getChainTransaction(db, taken.assignTxId as string);
      expect(resent?.status).toBe("confirmed");
      expect(resent?.hash).toBe(tx?.hash);
      expect(resent?.blockHash).not.toBe(tx?.blockHash);

      // Nothing left to do: a second run sends nothing.
      const second = await reconcile(db, { dealId });
      expect(second.escrow.assigned).toBe(0);
      expect(await assignments(dealId)).toHaveLength(1);

      // And the deal pays: the release finds its creator on-chain.
      await submit(p.creator, milestoneId, goodDeliverable);
      const paid = await settleMilestone(
        db,
        p.brand.user,
        { milestoneId, via: "direct" },
        { verifier: { model: answering(approve) } },
      );
      expect(paid.outcome).toBe("paid");
      expect(await transfersTo(p.wallet)).toHaveLength(1);
      expect(await usdcBalance(p.wallet)).toBe(46_000_000n);
    },
  );

  it.each([
    ["anvil_reorg", [2, []]],
    ["anvil_rollback", [2]],
  ])(
    "%s at depth 2: not assigned before its depth, sent again after the reorg, assigned once",
    { timeout: 90_000 },
    async (method, params) => {
      const p = await parties();
      const db = await getDb();
      // Mined at once, not final: the creator's answer says the chain has not confirmed it.
      const { dealId, accepted } = await takenDeal(p, deep);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(502);
      const taken = await dealRow(dealId);
      expect(taken.assignedAt).toBeNull();
      const tx = await getChainTransaction(db, taken.assignTxId as string);
      expect(tx?.status).toBe("submitted");
      expect(tx?.blockNumber).not.toBeNull();
      const key = escrowKey(taken);

      // One block on top: on the chain's head, but short of the depth, so not assigned yet.
      await rpc("anvil_mine", ["0x1"]);
      await withChainEnv(deep, () => reconcile(db, { dealId }));
      expect((await dealRow(dealId)).assignedAt).toBeNull();

      // The blocks holding it go away.
      await rpc(method, params);
      expect(await receipt(tx?.hash as string)).toBeNull();
      expect((await readEscrowDeal(key)).creator).toBeNull();

      // Sent again (same bytes): mined, still not final.
      await withChainEnv(deep, () => reconcile(db, { dealId }));
      expect((await dealRow(dealId)).assignedAt).toBeNull();
      const resent = await getChainTransaction(db, tx?.id as string);
      expect(resent?.hash).toBe(tx?.hash);
      expect(resent?.blockNumber).not.toBeNull();
      expect(resent?.blockHash).not.toBe(tx?.blockHash);

      // Two blocks on top: final, assigned.
      await rpc("anvil_mine", ["0x2"]);
      const done = await withChainEnv(deep, () => reconcile(db, { dealId }));
      expect(done.escrow.assigned).toBe(1);
      expect((await dealRow(dealId)).assignedAt).not.toBeNull();
      const creator = (await readEscrowDeal(key)).creator;
      expect(creator && isAddressEqual(creator, p.wallet)).toBe(true);
      expect(await assignments(dealId)).toHaveLength(1);
    },
  );
});
