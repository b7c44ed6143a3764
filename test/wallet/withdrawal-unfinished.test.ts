import { eq } from "drizzle-orm";
import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as withdrawalsRoute from "@/app/api/wallet/withdrawals/route";
import { getDb } from "@/db/client";
import { chainTransactions, withdrawals } from "@/db/schema";
import { reconcile } from "@/lib/settle/reconcile";
import { call } from "../helpers/http";
import { newAddress } from "../helpers/treasury";
import { type PausableChain, startPausableChain } from "../settle/unfinished";
import { embeddedCreator, usdcBalance, usdcTransfersTo } from "./helpers";

// A withdrawal the chain left unfinished, made the way it happens: the transfer was signed,
// recorded and broadcast, then the node mined nothing until the request gave up, and lost
// the transaction (as a restarted node does). Reconcile must finish it with the same signed
// bytes: sending anew would show up as a second transfer. This file's own anvil (mining can be
// paused without touching the shared node); the receipt timeout is 1 s.

let chain: PausableChain;
beforeAll(async () => {
  chain = await startPausableChain();
});
afterAll(async () => {
  await chain?.stop();
});

const usdc = (amount: string) => parseUnits(amount, 6);

describe("a withdrawal cut off between send and receipt", () => {
  it("answers on its way; reconcile finishes it exactly once", async () => {
    const db = await getDb();
    const creator = await embeddedCreator(usdc("30"));
    const to = newAddress();

    await chain.rpc("evm_setAutomine", [false]);
    let hash: string | undefined;
    try {
      const res = await call(withdrawalsRoute.POST, {
        token: creator.token,
        body: { to, amount: "20" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.withdrawal.status).toBe("submitted");
      hash = res.body.withdrawal.txHash;
    } finally {
      if (hash) await chain.rpc("anvil_dropTransaction", [hash]);
      await chain.rpc("evm_setAutomine", [true]);
    }
    expect(await usdcBalance(to)).toBe(0n);

    // Still reserved while unfinished: a second send of the rest cannot overdraw.
    const more = await call(withdrawalsRoute.POST, {
      token: creator.token,
      body: { to: newAddress(), amount: "20" },
    });
    expect(more.status).toBe(409);
    expect(more.body.error.code).toBe("insufficient_funds");
    expect(more.body.error.details).toEqual({ available: "10.000000" });

    // The withdrawal's own transaction, as an operator's targeted run: a full run here would
    // also resume what other test files left unfinished on their own chains (the database is
    // shared), and wait on those.
    const [pending] = await db
      .select({ id: withdrawals.chainTxId })
      .from(withdrawals)
      .where(eq(withdrawals.userId, creator.user.id));
    const transactionId = pending?.id as string;
    const report = await reconcile(db, { transactionId });
    expect(report.transactions.confirmed).toBe(1);
    expect(await usdcBalance(to)).toBe(usdc("20"));
    expect(await usdcBalance(creator.wallet)).toBe(usdc("10"));
    const transfers = await usdcTransfersTo(to);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.transactionHash).toBe(hash);

    const [row] = await db
      .select({ status: chainTransactions.status })
      .from(withdrawals)
      .innerJoin(chainTransactions, eq(chainTransactions.id, withdrawals.chainTxId))
      .where(eq(withdrawals.userId, creator.user.id));
    expect(row?.status).toBe("confirmed");

    // Again: nothing left to do, nothing moves twice.
    await reconcile(db, { transactionId });
    expect(await usdcTransfersTo(to)).toHaveLength(1);
    expect(await usdcBalance(to)).toBe(usdc("20"));
  });
});
