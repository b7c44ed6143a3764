import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { publicClient } from "@/lib/chain/config";
import { getChainTransaction } from "@/lib/chain/sender";
import { reconcile } from "@/lib/settle/reconcile";
import { settleMilestone } from "@/lib/settle/settle";
import { startOwnChain, withChainEnv } from "../helpers/chain-env";
import { answering, approve, goodDeliverable, submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// Confirmation depth and reorgs, on this file's own anvil (it rewrites its chain): with a
// depth of 2, a mined release is not a payment until two blocks are on top of it; a reorg
// (anvil_reorg) or a rollback (anvil_rollback) that removes it before then is seen by
// reconcile — no receipt, or the chain's block at its height is another — and the same
// signed release is sent again. In the end the creator is paid exactly once.

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
