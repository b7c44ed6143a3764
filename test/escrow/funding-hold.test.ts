import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { getDb } from "@/db/client";
import { holdForFunding, releaseFundingHold } from "@/db/queries/escrow";
import { chainTransactions, dealEvents, deals } from "@/db/schema";
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
  expectAgrees,
  postAuthorization,
  postCancel,
  signedAuthorization,
} from "./funding-steps";

// The funding hold (issue 27, deliverable 6) where the relay does not simply succeed: a
// refused authorization ends it at once; a funding sent but not mined keeps the deal held
// (cancel: 409 funding_in_progress), even after the hold ran out while its transaction is
// still in flight, and reconcile opens the deal from the escrow once it is mined; a crashed
// request's hold runs out and cancel then goes ahead after reading the escrow. This file's
// own anvil, so mining can be paused (receipt timeout 1 s).

let chain: PausableChain;
let brand: TestUser;

beforeAll(async () => {
  chain = await startPausableChain();
  brand = await makeUser("organization");
}, 120_000);

afterAll(async () => {
  await chain?.stop();
});

async function newDeal(amounts: number[]): Promise<DealRef> {
  const { id } = await createDeal(brand, amounts);
  return { id, brand, wallet: await brandWallet(brand, 50_000_000n) };
}

/** The hold ran out (as it does a few minutes after a request died). */
async function runOutHold(dealId: string) {
  const db = await getDb();
  await db
    .update(deals)
    .set({ fundingHeldUntil: sql`now() - interval '1 second'` })
    .where(eq(deals.id, dealId));
}

describe("the funding hold", () => {
  it("an authorization the escrow refuses ends the hold at once: the deal can be cancelled", async () => {
    const d = await newDeal([3]);
    // Signed by a key that is not the named brand wallet: the token refuses it.
    const stranger = { ...d, wallet: privateKeyToAccount(generatePrivateKey()) };
    const forged = { ...(await signedAuthorization(stranger)), brand: d.wallet.address };
    const refused = await postAuthorization(d, forged);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("invalid_signature");
    const db = await getDb();
    const [row] = await db.select().from(deals).where(eq(deals.id, d.id));
    expect(row?.fundingHeldUntil).toBeNull();
    expect(row?.fundingAttempts).toEqual([]);
    const cancel = await postCancel(d);
    expect(cancel.status).toBe(200);
    expect(cancel.body.deal.status).toBe("cancelled");
  });

  it("a funding sent but not mined holds the deal, past its hold too; reconcile opens it once mined", async () => {
    const d = await newDeal([4, 1]);
    const body = await signedAuthorization(d);
    const before = await usdcBalance(d.wallet.address);
    await chain.rpc("evm_setAutomine", [false]);
    try {
      const sent = await withChainEnv({ CHAIN_BUDGET_SECONDS: "1" }, () =>
        postAuthorization(d, body),
      );
      // Sent, not confirmed within the request's budget: 202 with the funding's state and
      // the deal's URL to poll.
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      expect(sent.body.deal.status).toBe("unfunded");
      expect(sent.body.funding).toEqual({
        status: "submitted",
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(sent.body.poll).toBe(`/api/deals/${d.id}`);
      const polled = await call(dealRoute.GET, { token: brand.token, params: { id: d.id } });
      expect(polled.body.deal.status).toBe("unfunded");

      const held = await postCancel(d);
      expect(held.status).toBe(409);
      expect(held.body.error.code).toBe("funding_in_progress");
      // The hold runs out (the request is long gone), but the relayer's transaction is
      // still in flight: cancel still waits.
      await runOutHold(d.id);
      const stillHeld = await postCancel(d);
      expect(stillHeld.status).toBe(409);
      expect(stillHeld.body.error.code).toBe("funding_in_progress");
      expect((await escrowOf(d)).exists).toBe(false);
    } finally {
      await chain.rpc("evm_setAutomine", [true]);
      await chain.rpc("evm_mine");
    }
    const db = await getDb();
    await reconcile(db, { dealId: d.id });
    const [relayed] = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.purpose, `funding:${d.id}`));
    // Finishes the relayer's transaction record too.
    await reconcile(db, { transactionId: relayed?.id ?? "" });
    await reconcile(db, { dealId: d.id }); // a second run announces nothing again
    const view = await expectAgrees(d, "after reconcile");
    // Announced once: one funded event (the inbox, e-mail and webhooks are made from it).
    const funded = await db
      .select()
      .from(dealEvents)
      .where(and(eq(dealEvents.dealId, d.id), eq(dealEvents.type, "funded")));
    expect(funded).toHaveLength(1);
    expect(view).toMatchObject({ status: "open", funded: true, locked: "5.000000" });
    expect(await usdcBalance(d.wallet.address)).toBe(before - 5_000_000n);
    const [tx] = await db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.purpose, `funding:${d.id}`));
    expect(tx?.status).toBe("confirmed");
    // Funded: cancel now says what to call from the wallet.
    const cancel = await postCancel(d);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe("invalid_state");
    expect(cancel.body.error.details.function).toBe("cancel(bytes32)");
  });

  it("a crashed request's hold runs out; cancel then reads the escrow and goes ahead", async () => {
    const d = await newDeal([2]);
    const db = await getDb();
    // A request took the hold and died before sending anything.
    const held = await holdForFunding(db, d.id, {
      attempt: randomUUID(),
      funder: d.wallet.address,
      seconds: 300,
    });
    expect(held?.fundingHeldUntil).not.toBeNull();
    const refused = await postCancel(d);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("funding_in_progress");
    await runOutHold(d.id);
    const cancel = await postCancel(d);
    expect(cancel.status).toBe(200);
    expect(cancel.body.deal.status).toBe("cancelled");
    await expectAgrees(d);
  });

  it("another wallet's funding is refused while one holds the deal; the same wallet's joins it", async () => {
    const d = await newDeal([2]);
    const db = await getDb();
    const first = randomUUID();
    expect(
      await holdForFunding(db, d.id, { attempt: first, funder: d.wallet.address, seconds: 300 }),
    ).toBeDefined();
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(
      await holdForFunding(db, d.id, { attempt: randomUUID(), funder: other, seconds: 300 }),
    ).toBeUndefined();
    const joined = await holdForFunding(db, d.id, {
      attempt: randomUUID(),
      funder: d.wallet.address,
      seconds: 300,
    });
    expect(joined?.fundingAttempts).toHaveLength(2);
    expect(joined?.fundingAttempts[0]).toBe(first);
  });

  it("while a funding holds the deal its amounts and deadline wait; its title does not", async () => {
    const d = await newDeal([2]);
    const db = await getDb();
    const attempt = randomUUID();
    await holdForFunding(db, d.id, { attempt, funder: d.wallet.address, seconds: 300 });
    const edit = (body: unknown) =>
      call(dealRoute.PATCH, { method: "PATCH", token: brand.token, params: { id: d.id }, body });
    const later = new Date(Date.now() + 40 * 24 * 3600 * 1000).toISOString();
    const deadline = await edit({ deadline: later });
    expect(deadline.status).toBe(409);
    expect(deadline.body.error.code).toBe("funding_in_progress");
    const title = await edit({ title: "Renamed while funding" });
    expect(title.status).toBe(200);
    expect(title.body.deal.title).toBe("Renamed while funding");
    await releaseFundingHold(db, d.id, attempt);
    expect((await edit({ deadline: later })).status).toBe(200);
  });
});
