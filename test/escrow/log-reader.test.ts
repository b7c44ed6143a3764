import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as dealRoute from "@/app/api/deals/[id]/route";
import { getDb } from "@/db/client";
import { chainCursors } from "@/db/schema";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { sendTransaction } from "@/lib/chain/sender";
import { escrowEvents } from "@/lib/escrow/chain";
import { dealKey } from "@/lib/escrow/onchain";
import { reconcile } from "@/lib/settle/reconcile";
import { startOwnChain, withChainEnv } from "../helpers/chain-env";
import { linkFundingWallet, sendFunding } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { createDealFor } from "../helpers/new-deal";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";
import { newAddress, treasurySender, usdcTransfer } from "../helpers/treasury";
import { makeUser } from "../helpers/users";

// Reading the escrow's events as a hosted RPC allows: by topic, over bounded block ranges,
// from a cursor kept in the database (lib/chain/logs.ts), through a provider that refuses
// wide ranges, answers 429 and drops requests (the chaos proxy); and several RPC URLs with
// failover. This file's own anvil starts at block 50,000 (anvil --number: anvil_mine slows
// down too much to build such a history block by block), so the watcher's first read spans
// 50,000 blocks under a 2,000-block cap.

let anvil: AnvilInstance;
let restore: () => void;
let proxy: RpcProxy;

beforeAll(async () => {
  const own = await startOwnChain({ genesisNumber: 50_000 });
  anvil = own.anvil;
  restore = own.restore;
  proxy = await startRpcProxy(anvil.rpcUrl);
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
  restore?.();
});

const cursorOf = async (escrow: Address) => {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(chainCursors)
    .where(
      and(
        eq(chainCursors.chainId, chainConfig().chainId),
        eq(chainCursors.name, `logs:${escrow.toLowerCase()}`),
      ),
    );
  return row?.nextBlock ?? null;
};

describe("the escrow watcher on a capped, flaky RPC", () => {
  it("finds a funding nobody reported across a 50,000-block history under a 2,000-block cap", {
    timeout: 120_000,
  }, async () => {
    const brand = await makeUser("organization");
    const funder = await linkFundingWallet(brand);
    const deal = await createDealFor(brand, [12]);
    const fundingHash = await sendFunding(brand, deal.id, {}, { from: funder });
    const escrow = chainConfig().escrow as Address;
    const head = await publicClient().getBlockNumber();
    expect(head).toBeGreaterThan(50_000n);
    expect(await cursorOf(escrow)).toBeNull();

    // A provider that refuses ranges over 2,000 blocks, answers every 5th request 429 and
    // drops every 11th; the reader starts with 5,000-block ranges and must come down.
    proxy.chaos.maxLogRange = 2_000;
    proxy.chaos.tooManyEvery = 5;
    proxy.chaos.dropEvery = 11;
    try {
      const report = await withChainEnv({ RPC_URL: proxy.url, LOG_RANGE_BLOCKS: "5000" }, () =>
        getDb().then((db) => reconcile(db, { dealId: deal.id })),
      );
      expect(report.escrow.funded).toBe(1);
    } finally {
      proxy.chaos = {};
    }
    const seen = await call(dealRoute.GET, { token: brand.token, params: { id: deal.id } });
    expect(seen.body.deal.status).toBe("open");
    expect(seen.body.deal.escrow.fundingTxHash).toBe(fundingHash);
    // The provider's faults happened, and were survived.
    expect(proxy.faults.refusedRanges).toBeGreaterThan(0);
    expect(proxy.faults.tooMany).toBeGreaterThan(0);
    expect(proxy.faults.dropped).toBeGreaterThan(0);
    // The whole history was read, in ranges it accepted: at least 50,000 / 2,000 of them.
    expect(proxy.counts.get("eth_getLogs") ?? 0).toBeGreaterThanOrEqual(25);
    const cursor = await cursorOf(escrow);
    expect(cursor).toBeGreaterThan(head);

    // The cursor is in the database: the next read asks only for the blocks since.
    const before = proxy.counts.get("eth_getLogs") ?? 0;
    const events = await withChainEnv({ RPC_URL: proxy.url }, () =>
      escrowEvents(dealKey(funder.address, deal.id), null),
    );
    expect(events.map((e) => e.eventName)).toContain("Funded");
    expect(events.find((e) => e.eventName === "Funded")?.transactionHash).toBe(fundingHash);
    expect((proxy.counts.get("eth_getLogs") ?? 0) - before).toBeLessThanOrEqual(2);
  });
});

describe("several RPC URLs", () => {
  it("a request the first URL fails goes to the second: the transfer is sent and confirmed", async () => {
    const { db, key, usdc } = await treasurySender();
    const dead = await startRpcProxy(anvil.rpcUrl, { dropEvery: 1 });
    try {
      const to = newAddress();
      const row = await withChainEnv(
        { RPC_URL: dead.url, RPC_FALLBACK_URLS: anvil.rpcUrl },
        async () => {
          expect(await publicClient().getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(50_000n);
          return sendTransaction(db, key, usdcTransfer(usdc, to, 3n, "test:failover"));
        },
      );
      expect(row.status).toBe("confirmed");
      // The first URL was asked and failed every time; the second answered.
      expect(dead.faults.dropped).toBeGreaterThan(0);
      expect(dead.faults.dropped).toBe([...dead.counts.values()].reduce((a, b) => a + b, 0));
    } finally {
      await dead.close();
    }
  });
});
