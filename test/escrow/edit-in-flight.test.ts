import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { getDb } from "@/db/client";
import { dealEvents, deals } from "@/db/schema";
import { reconcile } from "@/lib/settle/reconcile";
import { withChainEnv } from "../helpers/chain-env";
import { brandWallet } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import { usdcBalance } from "../settle/fixtures";
import { type PausableChain, startPausableChain } from "../settle/unfinished";
import {
  createDeal,
  type DealRef,
  escrowOf,
  postAuthorization,
  signedAuthorization,
} from "./funding-steps";

// A relayed funding answered 202 on a slow chain (the chain budget ran out) can outlive the
// deal's funding hold. Its transaction carries the amounts and the deadline as they were, so
// an edit of those must wait for it as cancel does (fundingInFlight: the hold, or the
// relayer's transaction still unmined). Otherwise the old terms are mined, the edited deal
// never matches the escrow, never opens, and the brand's USDC sits in the escrow unseen.
// (Found by a review of dc366d2; the edit used to look at the hold only.)

let chain: PausableChain;
let brand: TestUser;
beforeAll(async () => {
  chain = await startPausableChain();
  brand = await makeUser("organization");
}, 120_000);
afterAll(async () => {
  await chain?.stop();
});

describe("editing a deal while its relayed funding is in flight", () => {
  it("refuses a new deadline while the funding is unmined past its hold; the funding then opens the deal as sent", async () => {
    const { id } = await createDeal(brand, [3]);
    const d: DealRef = { id, brand, wallet: await brandWallet(brand, 50_000_000n) };
    const body = await signedAuthorization(d);
    const before = await usdcBalance(d.wallet.address);
    await chain.rpc("evm_setAutomine", [false]);
    try {
      const sent = await withChainEnv({ CHAIN_BUDGET_SECONDS: "1" }, () =>
        postAuthorization(d, body),
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      // The hold has run out; the relayer's transaction is still waiting to be mined.
      const db = await getDb();
      await db
        .update(deals)
        .set({ fundingHeldUntil: sql`now() - interval '1 second'` })
        .where(eq(deals.id, id));
      const later = new Date(Date.now() + 40 * 24 * 3600 * 1000).toISOString();
      const edited = await call(dealRoute.PATCH, {
        method: "PATCH",
        token: brand.token,
        params: { id },
        body: { deadline: later },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(409);
      expect(edited.body.error.code).toBe("funding_in_progress");
      // What does not touch the funded terms may still change.
      const retitled = await call(dealRoute.PATCH, {
        method: "PATCH",
        token: brand.token,
        params: { id },
        body: { title: "Retitled while funding" },
      });
      expect(retitled.status, JSON.stringify(retitled.body)).toBe(200);
    } finally {
      await chain.rpc("evm_setAutomine", [true]);
      await chain.rpc("evm_mine");
    }
    const db = await getDb();
    await reconcile(db, { dealId: id });
    const [row] = await db.select().from(deals).where(eq(deals.id, id));
    expect(row?.status).toBe("open");
    expect((await escrowOf(d)).exists).toBe(true);
    expect(before - (await usdcBalance(d.wallet.address))).toBe(3_000_000n);
    const funded = await db
      .select()
      .from(dealEvents)
      .where(and(eq(dealEvents.dealId, id), eq(dealEvents.type, "funded")));
    expect(funded).toHaveLength(1);
  });
});
