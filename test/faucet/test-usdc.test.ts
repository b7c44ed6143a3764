import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import * as testUsdcRoute from "@/app/api/faucet/test-usdc/route";
import { getDb } from "@/db/client";
import { chainTransactions } from "@/db/schema";
import { requireUsdc } from "@/lib/chain/config";
import { reconcile } from "@/lib/settle/reconcile";
import { anvilRpc, startOwnChain, withChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { newAddress, usdcBalance } from "../helpers/treasury";
import { makeUser } from "../helpers/users";

// POST /api/faucet/test-usdc (local chain only) answers within the chain budget like every
// other money route: a mint the chain has not confirmed by then is 202 with a URL to poll,
// GET /api/faucet/test-usdc?address= (the caller's own), and reconcile finishes it.

const balanceOf = (who: Address) => usdcBalance(requireUsdc(), who);
const mint = (token: string, address: string) =>
  call(testUsdcRoute.POST, { token, body: { address } });
const poll = (token: string, path: string) => call(testUsdcRoute.GET, { token, path });

describe("the local test-USDC mint", () => {
  it("a frozen chain: 202 submitted with a poll URL within the budget; reconcile finishes the mint once", {
    timeout: 60_000,
  }, async () => {
    const own = await startOwnChain();
    const brand = await makeUser("organization");
    const address = newAddress();
    try {
      await anvilRpc(own.anvil.rpcUrl, "evm_setAutomine", [false]);
      let txHash: Hex;
      let url: string;
      try {
        const res = await withChainEnv(
          { CHAIN_BUDGET_SECONDS: "1", TX_RECEIPT_TIMEOUT_SECONDS: "3" },
          () => mint(brand.token, address),
        );
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        expect(res.body).toMatchObject({ address, amount: "1000.00", status: "submitted" });
        expect(res.body.poll).toBe(`/api/faucet/test-usdc?address=${address}`);
        txHash = res.body.txHash;
        url = res.body.poll;
        const polled = await poll(brand.token, url);
        expect(polled.status).toBe(200);
        expect(polled.body).toMatchObject({ status: "submitted", txHash, poll: url });
        expect(await balanceOf(address)).toBe(0n);
        // The poll is the caller's own: a stranger learns nothing.
        const stranger = await makeUser("organization");
        expect((await poll(stranger.token, url)).status).toBe(404);
      } finally {
        await anvilRpc(own.anvil.rpcUrl, "evm_setAutomine", [true]);
      }
      await anvilRpc(own.anvil.rpcUrl, "evm_mine");
      const db = await getDb();
      const [row] = await db
        .select()
        .from(chainTransactions)
        .where(eq(chainTransactions.hash, txHash));
      const report = await reconcile(db, { transactionId: row?.id as string });
      expect(report.transactions.confirmed).toBe(1);
      const done = await poll(brand.token, url);
      expect(done.body).toMatchObject({ status: "confirmed", txHash });
      expect(done.body.poll).toBeUndefined();
      expect(await balanceOf(address)).toBe(1_000_000_000n);

      // A chain that answers: 200, confirmed, nothing to poll.
      const fast = await mint(brand.token, address);
      expect(fast.status).toBe(200);
      expect(fast.body).toMatchObject({ status: "confirmed" });
      expect(fast.body.poll).toBeUndefined();
      expect(await balanceOf(address)).toBe(2_000_000_000n);
    } finally {
      own.restore();
      await own.anvil.stop();
    }
  });
});
