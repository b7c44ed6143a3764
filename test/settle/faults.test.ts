import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { chainTransactions, milestones } from "@/db/schema";
import { type AnvilInstance, startAnvil } from "@/lib/chain/anvil";
import { publicClient, resetChainConfigCache } from "@/lib/chain/config";
import { reconcile } from "@/lib/settle/reconcile";
import { settleMilestone } from "@/lib/settle/settle";
import { setChainEnv, startOwnChain } from "../helpers/chain-env";
import { answering, approve, goodDeliverable, submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// The chain fails after the payment is sent and before its receipt: this file runs its
// own anvil (with a state file) so it can stop and restart it without disturbing others.

let anvil: AnvilInstance;
let port: number;
const restores: Array<() => void> = [];
const stateFile = path.join(mkdtempSync(path.join(tmpdir(), "milestone-faults-")), "anvil.json");

beforeAll(async () => {
  const own = await startOwnChain({ stateFile });
  anvil = own.anvil;
  port = anvil.port;
  restores.push(own.restore, setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "1" }));
});

afterAll(async () => {
  await anvil?.stop();
  for (const restore of restores.reverse()) restore();
});

async function rpc(method: string, params: unknown[] = []) {
  const res = await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

describe("the chain fails between sending and the receipt", () => {
  it("keeps the settlement resumable, and reconcile pays exactly once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
    const db = await getDb();

    // The node takes the transaction but mines nothing: no receipt will come. Settle answers
    // within its budget that the payment is sent, not confirmed (the route's 202).
    await rpc("evm_setAutomine", [false]);
    const sent = await settleMilestone(
      db,
      brand.user,
      { milestoneId, via: "direct" },
      { verifier: { model: answering(approve) } },
    );
    expect(sent.outcome).toBe("submitted");
    const [submitted] = await settlementRows(milestoneId);
    expect(submitted?.status).toBe("submitted");
    expect(submitted?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const [m] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    expect(m?.status).toBe("approved");

    // The node dies with the transaction still unmined (its mempool is not persisted).
    await anvil.stop();
    // Reconcile is scoped to this settlement: the shared test database also holds other
    // files' settlements, which belong to the shared anvil, not to this one.
    const only = { settlementId: submitted?.id };
    const down = await reconcile(db, only);
    expect(down.settlements.stillPending).toBe(1);
    expect(down.settlements.confirmed).toBe(0);
    // While it is down, settling again answers that the payment is on its way (the route's
    // 202: nothing new is signed) and changes nothing.
    const retry = await settleMilestone(db, brand.user, { milestoneId, via: "direct" });
    expect(retry).toMatchObject({ outcome: "submitted", poll: `/api/milestones/${milestoneId}` });
    const [still] = await settlementRows(milestoneId);
    expect(still).toMatchObject({ status: "submitted", txHash: submitted?.txHash });

    anvil = await startAnvil({ port, stateFile });
    resetChainConfigCache();
    expect(await usdcBalance(wallet)).toBe(0n);

    const report = await reconcile(db, only);
    expect(report.settlements.confirmed).toBe(1);
    const [done] = await settlementRows(milestoneId);
    expect(done?.status).toBe("confirmed");
    // The same signed bytes were re-broadcast: same hash, one transfer, the full payout.
    expect(done?.txHash).toBe(submitted?.txHash);
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
    const receipt = await publicClient().getTransactionReceipt({
      hash: done?.txHash as `0x${string}`,
    });
    expect(receipt.status).toBe("success");
    const [after] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    expect(after?.status).toBe("paid");

    // Reconciling again, or settling again, pays nothing more.
    const idle = await reconcile(db, only);
    expect(idle.settlements.confirmed).toBe(0);
    const again = await settleMilestone(db, brand.user, { milestoneId, via: "direct" }).catch(
      (e) => e,
    );
    expect(again.code).toBe("already_settled");
    expect(await transfersTo(wallet)).toHaveLength(1);
    const txs = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.hash, done?.txHash as string));
    expect(txs).toHaveLength(1);
  });
});

describe("the payment is mined but its bookkeeping fails", () => {
  // The release is mined at once (automine), and its outcome is written in the same
  // database transaction as the settlement's (lib/settle/advance.ts, sendFresh). Here that
  // transaction fails once: the chain has paid, the database says nothing was confirmed.
  it("leaves the transaction resumable; reconcile records the payment once, with no second transfer", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
    const db = await getDb();
    await db.execute(
      sql.raw(`
        create or replace function milestone_test_refuse_confirm() returns trigger as $$
        begin
          if new.status = 'confirmed' and new.milestone_id = '${milestoneId}' then
            raise exception 'bookkeeping refused (test)';
          end if;
          return new;
        end $$ language plpgsql`),
    );
    await db.execute(
      sql.raw(`create trigger milestone_test_refuse_confirm before update on settlements
          for each row execute function milestone_test_refuse_confirm()`),
    );
    try {
      const err = await settleMilestone(
        db,
        brand.user,
        { milestoneId, via: "direct" },
        { verifier: { model: answering(approve) } },
      ).catch((e) => e);
      expect(err).toBeInstanceOf(Error);
    } finally {
      await db.execute(sql.raw("drop trigger milestone_test_refuse_confirm on settlements"));
      await db.execute(sql.raw("drop function milestone_test_refuse_confirm()"));
    }
    // Paid on-chain, the settlement not recorded. The transaction's own row is `pending` when
    // the receipt was there at once (its outcome went down with the bookkeeping), `submitted`
    // when the node answered the send before mining (a busy machine) and the receipt awaited
    // afterwards was to be written with the bookkeeping too (6fe7101), or `confirmed` when it
    // was written on its own.
    expect(await transfersTo(wallet)).toHaveLength(1);
    const [s] = await settlementRows(milestoneId);
    expect(s?.status).toBe("submitted");
    const [tx] = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.id, s?.chainTxId as string));
    expect(["pending", "submitted", "confirmed"]).toContain(tx?.status);

    const report = await reconcile(db, { settlementId: s?.id });
    expect(report.settlements.confirmed).toBe(1);
    const [done] = await settlementRows(milestoneId);
    expect(done?.status).toBe("confirmed");
    expect(done?.txHash).toBe(s?.txHash);
    const [confirmed] = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.id, s?.chainTxId as string));
    expect(confirmed?.status).toBe("confirmed");
    // One transfer, the full payout, and settling again pays nothing more.
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
    const again = await settleMilestone(db, brand.user, { milestoneId, via: "direct" }).catch(
      (e) => e,
    );
    expect(again.code).toBe("already_settled");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
