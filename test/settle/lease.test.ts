import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { settlements } from "@/db/schema";
import { reconcile } from "@/lib/settle/reconcile";
import { call } from "../helpers/http";
import { submittedMilestone } from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";
import { leaveSettlementUnmined, type PausableChain, startPausableChain } from "./unfinished";

// Whoever advances a settlement holds its lease. A live lease keeps everyone else out; a
// lease whose holder died (it expired, never released) is taken over, and the settlement
// is finished exactly once even when two callers race to take it over.

let chain: PausableChain;
beforeAll(async () => {
  chain = await startPausableChain();
});
afterAll(async () => {
  await chain?.stop();
});

/** Sets the settlement's lease as if another caller had taken it (`seconds` from now). */
async function leaseFor(settlementId: string, seconds: number) {
  const db = await getDb();
  await db
    .update(settlements)
    .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${seconds})` })
    .where(eq(settlements.id, settlementId));
}

describe("the settlement lease", () => {
  it("a live lease turns others away; an expired one is taken over, and pays exactly once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    const left = await leaveSettlementUnmined(chain, brand, milestoneId);
    const db = await getDb();
    const only = { settlementId: left.id };
    const settle = () => call(settleRoute.POST, { token: brand.token, body: { milestoneId } });

    // Someone holds it (and may be paying it right now): nobody else touches it.
    await leaseFor(left.id, 600);
    const refused = await settle();
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("settlement_in_progress");
    const busy = await reconcile(db, only);
    expect(busy.settlements).toEqual({ confirmed: 0, stillPending: 0, busy: 1, failed: 0 });
    expect((await settlementRows(milestoneId))[0]?.status).toBe("submitted");
    expect(await usdcBalance(wallet)).toBe(0n);

    // Its holder died without releasing it: the lease lapses. A settle call and a reconcile
    // race for the takeover; one finishes the payment, the other stays out of its way.
    await leaseFor(left.id, -1);
    const [viaSettle, viaReconcile] = await Promise.all([settle(), reconcile(db, only)]);

    const [done] = await settlementRows(milestoneId);
    expect(done?.status).toBe("confirmed");
    expect(done?.txHash).toBe(left.txHash); // the recorded transaction, not a new one
    const transfers = await transfersTo(wallet);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.args.value).toBe(left.amountUnits);

    // Each answer is a finished payment or a clean refusal; neither leaves anything broken.
    if (viaSettle.status === 200) {
      expect(viaSettle.body.settlement.status).toBe("confirmed");
      expect(viaSettle.body.settlement.txHash).toBe(left.txHash);
    } else {
      expect(viaSettle.status).toBe(409);
      expect(["settlement_in_progress", "already_settled"]).toContain(viaSettle.body.error.code);
    }
    expect(viaReconcile.settlements.failed).toBe(0);
    expect(viaReconcile.settlements.stillPending).toBe(0);
    expect(viaSettle.status === 200 || viaReconcile.settlements.confirmed === 1).toBe(true);

    // Later callers find it paid.
    const after = await settle();
    expect(after.status).toBe(409);
    expect(after.body.error.code).toBe("already_settled");
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
