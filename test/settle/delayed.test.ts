import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestoneStatusText, paymentState, stuckPayments } from "@/components/deals/format";
import { getDb } from "@/db/client";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { getDeal, listDeals } from "@/lib/deals/deals";
import { settleMilestone } from "@/lib/settle/settle";
import { setChainEnv, startOwnChain } from "../helpers/chain-env";
import { answering, approve, goodDeliverable, submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo } from "./fixtures";

// A payment held up by the chain, as the two parties see it: the deal JSON the deal page
// and the dashboards render says "delayed" (nobody is advancing it), and the brand's retry
// — settling the same milestone again — finishes the same payment, never a second one.
// Its own anvil (with automine switched off), so the shared chain is not disturbed.

let anvil: AnvilInstance;
const restores: Array<() => void> = [];

beforeAll(async () => {
  const stateFile = path.join(mkdtempSync(path.join(tmpdir(), "milestone-delayed-")), "a.json");
  const own = await startOwnChain({ stateFile });
  anvil = own.anvil;
  restores.push(own.restore, setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "1" }));
});

afterAll(async () => {
  await anvil?.stop();
  for (const restore of restores.reverse()) restore();
});

async function setAutomine(on: boolean) {
  const res = await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [on] }),
  });
  expect(res.ok).toBe(true);
}

describe("a payment the chain does not confirm", () => {
  it("reads as delayed to both parties and on the brand's list, and the retry pays it once", async () => {
    const { brand, creator, wallet } = await parties();
    const { dealId, milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
    const db = await getDb();

    await setAutomine(false);
    const first = await settleMilestone(
      db,
      brand.user,
      { milestoneId, via: "direct" },
      { verifier: { model: answering(approve) } },
    );
    expect(first.outcome).toBe("submitted");

    for (const viewer of [brand, creator]) {
      const deal = await getDeal(db, viewer.user, dealId);
      const m = deal.milestones.find((x) => x.id === milestoneId);
      expect(m?.status).toBe("approved");
      expect(m?.settlement?.status).toBe("submitted");
      expect(m?.settlement?.inFlight).toBe(false);
      expect(paymentState(m?.settlement)).toBe("delayed");
      if (m) expect(milestoneStatusText(m)).toBe("Approved · payment delayed");
    }
    const mine = await listDeals(db, brand.user);
    const listed = mine.deals.find((d) => d.id === dealId);
    expect(listed && stuckPayments(listed).map((m) => m.id)).toEqual([milestoneId]);

    // The brand's retry: settle the same milestone again once the chain mines.
    const [sent] = await settlementRows(milestoneId);
    await setAutomine(true);
    const retried = await settleMilestone(db, brand.user, { milestoneId, via: "direct" });
    expect(retried.outcome).toBe("paid");
    const [done] = await settlementRows(milestoneId);
    expect(done?.id).toBe(sent?.id);
    expect(done?.status).toBe("confirmed");
    expect(await transfersTo(wallet)).toHaveLength(1);

    const after = await getDeal(db, creator.user, dealId);
    const paid = after.milestones.find((x) => x.id === milestoneId);
    expect(paymentState(paid?.settlement)).toBe("paid");
    expect(stuckPayments(after)).toEqual([]);
  });
});
