import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/milestones/[id]/decision/route";
import * as milestoneRoute from "@/app/api/milestones/[id]/route";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { dealEvents } from "@/db/schema";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { reconcile } from "@/lib/settle/reconcile";
import { startOwnChain, withChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { goodDeliverable, launchRequirements, submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// No request waits on the chain beyond its budget (CHAIN_BUDGET_SECONDS): with the chain
// frozen (this file's own anvil, mining nothing), POST /api/settle answers 202 with the
// settlement `submitted` and the URL to poll; reconcile finishes the payment once the chain
// moves, and the payment is announced once (one `paid` event: the inbox, e-mail and
// webhooks are all made from it).

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
  return (await res.json()) as { result?: unknown };
}

describe("a settle on a frozen chain", () => {
  it("answers 202 submitted with a poll URL; reconcile pays it once, announced once", {
    timeout: 60_000,
  }, async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
    await rpc("evm_setAutomine", [false]);
    let txHash: string;
    try {
      const res = await withChainEnv({ CHAIN_BUDGET_SECONDS: "1" }, () =>
        call(settleRoute.POST, { token: brand.token, body: { milestoneId } }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.outcome).toBe("submitted");
      expect(res.body.settlement.status).toBe("submitted");
      expect(res.body.settlement.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(res.body.poll).toBe(`/api/milestones/${milestoneId}`);
      expect(res.body.verdict.approved).toBe(true);
      txHash = res.body.settlement.txHash;
      const polled = await call(milestoneRoute.GET, {
        token: brand.token,
        params: { id: milestoneId },
      });
      expect(polled.body.milestone.settlement.status).toBe("submitted");
      expect(await usdcBalance(wallet)).toBe(0n);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    await rpc("evm_mine");

    const db = await getDb();
    const [s] = await settlementRows(milestoneId);
    const report = await reconcile(db, { settlementId: s?.id });
    expect(report.settlements.confirmed).toBe(1);
    const [paid] = await settlementRows(milestoneId);
    expect(paid?.status).toBe("confirmed");
    expect(paid?.txHash).toBe(txHash);
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(paid?.amountUnits);
    const announced = await db
      .select()
      .from(dealEvents)
      .where(and(eq(dealEvents.milestoneId, milestoneId), eq(dealEvents.type, "paid")));
    expect(announced).toHaveLength(1);
    // A later settle call is the usual 409: nothing more is paid or announced.
    const again = await call(settleRoute.POST, { token: brand.token, body: { milestoneId } });
    expect(again.body.error.code).toBe("already_settled");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it("a brand's decision answers 202 submitted too (decision and refund share the pay step); reconcile pays once", {
    timeout: 60_000,
  }, async () => {
    const { brand, creator, wallet } = await parties();
    // A criterion the rule check cannot judge: the brand decides (needs_decision).
    const { milestoneId } = await submittedMilestone(
      brand,
      creator,
      goodDeliverable,
      launchRequirements,
    );
    const decide = (body: Record<string, unknown>) =>
      call(decisionRoute.POST, { params: { id: milestoneId }, token: brand.token, body });
    await rpc("evm_setAutomine", [false]);
    try {
      const res = await withChainEnv({ CHAIN_BUDGET_SECONDS: "1" }, () =>
        decide({ approve: true, score: 0.8, reason: "Shows the app on screen." }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.settlement.status).toBe("submitted");
      expect(res.body.settlement.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(res.body.poll).toBe(`/api/milestones/${milestoneId}`);
      expect(res.body.milestone.review.decision).toMatchObject({ approved: true, score: 0.8 });
      expect(await usdcBalance(wallet)).toBe(0n);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    await rpc("evm_mine");
    const db = await getDb();
    const [s] = await settlementRows(milestoneId);
    expect((await reconcile(db, { settlementId: s?.id })).settlements.confirmed).toBe(1);
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(40_000_000n);
    // The decision is taken once: asking again pays nothing more.
    const again = await decide({ approve: true, score: 1, reason: "More." });
    expect(again.body.error.code).toMatch(/^already_(decided|settled)$/);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
