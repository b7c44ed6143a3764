import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { chainTransactions, deals } from "@/db/schema";
import { type AnvilInstance, startAnvil } from "@/lib/chain/anvil";
import { resetChainConfigCache } from "@/lib/chain/config";
import { assignCreatorOnChain } from "@/lib/escrow/deals";
import { reconcile } from "@/lib/settle/reconcile";
import { anvilRpc, setChainEnv, startOwnChain } from "../helpers/chain-env";
import { fundDeal } from "../helpers/fund-deal";
import { bonusSettlements, eventsOfType, newBonus, paidDeal, release } from "./bonus-steps";
import { transfersTo, usdcBalance } from "./fixtures";

// A bonus's release (lib/settle/bonuses.ts) is a settlement like any milestone's: when the
// chain dies between sending it and its receipt, the bonus stays `paying`, and reconcile
// finishes it with the same signed bytes — one transfer, one bonus.paid, however often it
// runs. This file runs its own anvil (with a state file) so it can stop and restart it.

let anvil: AnvilInstance;
let port: number;
const restores: Array<() => void> = [];
const stateFile = path.join(mkdtempSync(path.join(tmpdir(), "milestone-bonus-")), "anvil.json");

beforeAll(async () => {
  const own = await startOwnChain({ stateFile });
  anvil = own.anvil;
  port = anvil.port;
  restores.push(
    own.restore,
    setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "1", CHAIN_BUDGET_SECONDS: "1" }),
  );
});

afterAll(async () => {
  await anvil?.stop();
  for (const restore of restores.reverse()) restore();
});

const rpc = (method: string, params: unknown[] = []) => anvilRpc(anvil.rpcUrl, method, params);

describe("the chain dies between a bonus's release and its receipt", () => {
  it("answers 202 paying; reconcile pays it once with the same transaction; reconcile again does nothing", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, dealId } = await paidDeal();
    const bonus = await newBonus(brand, dealId, 7_000_000n, "For the extra story");
    await fundDeal(brand, bonus.id);
    const db = await getDb();
    // The creator is assigned to the bonus's escrow deal first (a mined transaction), so the
    // frozen chain below holds only the release.
    const [bonusDeal] = await db.select().from(deals).where(eq(deals.id, bonus.id));
    await assignCreatorOnChain(db, bonusDeal as NonNullable<typeof bonusDeal>);
    const before = await usdcBalance(wallet);
    const transfers = (await transfersTo(wallet)).length;

    await rpc("evm_setAutomine", [false]);
    const sent = await release(brand, dealId, bonus.id);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body.bonus.status).toBe("paying");
    expect(sent.body.poll).toBe(`/api/deals/${dealId}/bonuses/${bonus.id}`);
    const [submitted] = await bonusSettlements(bonus.id);
    expect(submitted?.status).toBe("submitted");
    expect(submitted?.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    // The node dies with the release unmined (its mempool is not kept).
    await anvil.stop();
    const down = await reconcile(db, { dealId: bonus.id });
    expect(down.settlements.stillPending).toBe(1);
    expect(down.settlements.confirmed).toBe(0);
    const refused = await release(brand, dealId, bonus.id);
    expect(refused.status).toBeGreaterThanOrEqual(409);
    expect(["chain_unavailable", "settlement_in_progress"]).toContain(refused.body.error.code);

    anvil = await startAnvil({ port, stateFile });
    resetChainConfigCache();
    expect(await usdcBalance(wallet)).toBe(before);

    const report = await reconcile(db, { dealId: bonus.id });
    expect(report.settlements.confirmed).toBe(1);
    const [done] = await bonusSettlements(bonus.id);
    expect(done?.status).toBe("confirmed");
    // The same signed bytes were broadcast again: same hash, one transfer of the bonus.
    expect(done?.txHash).toBe(submitted?.txHash);
    expect(await usdcBalance(wallet)).toBe(before + 7_000_000n);
    expect(await transfersTo(wallet)).toHaveLength(transfers + 1);

    // Idempotent: reconcile again, release again — nothing more is sent or announced.
    const idle = await reconcile(db, { dealId: bonus.id });
    expect(idle.settlements.confirmed).toBe(0);
    expect(idle.escrow.bonusesPaid).toBe(0);
    const again = await release(brand, dealId, bonus.id);
    expect(again.status).toBe(200);
    expect(again.body.bonus).toMatchObject({ status: "paid", txHash: done?.txHash });
    expect(await transfersTo(wallet)).toHaveLength(transfers + 1);
    expect(await eventsOfType(dealId, "bonus.paid")).toHaveLength(1);
    const txs = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.purpose, `settlement:${done?.id}`));
    expect(txs).toHaveLength(1);
  });
});
