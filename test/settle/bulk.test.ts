import { inArray } from "drizzle-orm";
import type { Hex, TransactionReceipt } from "viem";
import { describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { settlements } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { RELEASES_PER_TX } from "@/lib/settle/batch";
import { reconcile } from "@/lib/settle/reconcile";
import { withChainEnv } from "../helpers/chain-env";
import { call } from "../helpers/http";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { makeUser } from "../helpers/users";
import { submit } from "../verify/fixtures";
import {
  activeDeal,
  deliveredMilestones,
  expectPaidBy,
  parties,
  settlementRows,
  transfersTo,
  usdcBalance,
} from "./fixtures";

// Bulk settle: POST /api/settle with { milestoneIds } settles each milestone as the single
// form would and answers one outcome per id. 100 milestones (5 deals of 20), 10 paid
// beforehand, 10 with nothing delivered, the same bulk request sent 3 times at once: each
// milestone is paid exactly once, on-chain and in the answers.

type Item = {
  milestoneId: string;
  outcome: string;
  settlement?: { status: string };
  error?: { code: string };
};

describe("bulk settle", () => {
  it("100 milestones, some paid already or not delivered: each its own outcome, each paid exactly once under concurrent repeats", {
    timeout: 300_000,
  }, async () => {
    const { brand, creator, wallet } = await parties();
    const ids: string[] = [];
    for (let d = 0; d < 5; d++) ids.push(...(await activeDeal(brand, creator, 20)));
    expect(ids).toHaveLength(100);
    const undelivered = new Set(ids.slice(90));
    const prepaid = new Set(ids.slice(0, 10));
    for (const id of ids) if (!undelivered.has(id)) await submit(creator, id);
    for (const id of prepaid) {
      const res = await call(settleRoute.POST, { token: brand.token, body: { milestoneId: id } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.outcome).toBe("paid");
    }

    const bulk = () => call(settleRoute.POST, { token: brand.token, body: { milestoneIds: ids } });
    const answers = await Promise.all([bulk(), bulk(), bulk()]);
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body).slice(0, 500)).toBe(200);
      expect((a.body.results as Item[]).map((r) => r.milestoneId)).toEqual(ids);
    }
    const sent: string[] = [];
    for (const [i, id] of ids.entries()) {
      const outcomes = answers.map((a) => a.body.results[i] as Item);
      if (prepaid.has(id)) {
        for (const o of outcomes) {
          expect(o.outcome).toBe("already_paid");
          expect(o.settlement?.status).toBe("confirmed");
        }
      } else if (undelivered.has(id)) {
        for (const o of outcomes)
          expect(o).toMatchObject({ outcome: "refused", error: { code: "no_deliverable" } });
      } else {
        // One of the three paid it (or sent it: `submitted` once the bulk's chain budget ran
        // out on a busy machine); the others found it paid, or being paid right then.
        const payers = outcomes.filter((o) => o.outcome === "paid" || o.outcome === "submitted");
        expect(payers, JSON.stringify(outcomes)).toHaveLength(1);
        if (payers[0]?.outcome === "submitted") sent.push(id);
        for (const o of outcomes.filter((o) => o !== payers[0])) {
          if (o.outcome === "refused") expect(o.error?.code).toBe("settlement_in_progress");
          else expect(o.outcome).toBe("already_paid");
        }
      }
    }

    // On-chain: one release per delivered milestone, no more.
    const db = await getDb();
    for (const id of sent) {
      const [s] = await settlementRows(id);
      await reconcile(db, { settlementId: s?.id });
    }
    const rows = await db.select().from(settlements).where(inArray(settlements.milestoneId, ids));
    expect(rows).toHaveLength(90);
    expect(new Set(rows.map((r) => r.milestoneId)).size).toBe(90);
    expect(rows.every((r) => r.status === "confirmed")).toBe(true);
    const owed = rows.reduce((sum, r) => sum + r.amountUnits, 0n);
    expect(await usdcBalance(wallet)).toBe(owed);
    expect(await transfersTo(wallet)).toHaveLength(90);
    // The bulk settles' releases went out together (lib/settle/batch.ts): at most one
    // releaseBatch per RELEASES_PER_TX items of a request, not one transaction per milestone;
    // every settlement records the Released event that paid it.
    const bulkPaid = rows.filter((r) => !prepaid.has(r.milestoneId));
    expect(new Set(bulkPaid.map((r) => r.chainTxId)).size).toBeLessThanOrEqual(
      answers.length * Math.ceil(ids.length / RELEASES_PER_TX),
    );
    const receipts = new Map<string, Promise<TransactionReceipt>>();
    for (const r of rows) {
      const hash = r.txHash as Hex;
      if (!receipts.has(hash)) receipts.set(hash, publicClient().getTransactionReceipt({ hash }));
      await expectPaidBy(r, await receipts.get(hash));
    }

    // Once more: nothing new is paid.
    const again = await bulk();
    expect(again.status).toBe(200);
    const counts = new Map<string, number>();
    for (const r of again.body.results as Item[])
      counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ already_paid: 90, refused: 10 });
    expect(await transfersTo(wallet)).toHaveLength(90);
    expect(await usdcBalance(wallet)).toBe(owed);

    // The same owner filters as one settle: a stranger learns nothing of them.
    const stranger = await makeUser("organization");
    const foreign = await call(settleRoute.POST, {
      token: stranger.token,
      body: { milestoneIds: ids.slice(10, 13) },
    });
    expect(foreign.status).toBe(200);
    for (const r of foreign.body.results as Item[])
      expect(r).toMatchObject({ outcome: "refused", error: { code: "not_found" } });
  });

  it("a node that fails after an item's transfer was recorded: that item is submitted with its poll URL, not refused; reconcile pays it once", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(2);
    const proxy = await startRpcProxy(chainConfig().rpcUrl);
    let results: Item[];
    try {
      // Every broadcast is cut off: the transfers are signed and recorded, never sent.
      proxy.failing.add("eth_sendRawTransaction");
      const res = await withChainEnv({ RPC_URL: proxy.url }, () =>
        call(settleRoute.POST, { token: brand.token, body: { milestoneIds: ids } }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      results = res.body.results;
    } finally {
      await proxy.close();
    }
    for (const [i, id] of ids.entries()) {
      const r = results[i] as Item & { poll?: string };
      expect(r, JSON.stringify(r)).toMatchObject({
        milestoneId: id,
        outcome: "submitted",
        poll: `/api/milestones/${id}`,
      });
      const [row] = await settlementRows(id);
      expect(row?.chainTxId).toBeTruthy();
      expect(r.settlement?.status).toBe(row?.status);
      expect(["pending", "submitted"]).toContain(row?.status);
    }
    expect(await usdcBalance(wallet)).toBe(0n);

    // The node is back: reconcile sends the recorded bytes; each is paid once.
    const db = await getDb();
    let owed = 0n;
    for (const id of ids) {
      const [row] = await settlementRows(id);
      const report = await reconcile(db, { settlementId: row?.id });
      expect(report.settlements.confirmed).toBe(1);
      owed += row?.amountUnits ?? 0n;
    }
    expect(await transfersTo(wallet)).toHaveLength(2);
    expect(await usdcBalance(wallet)).toBe(owed);
  });

  it("the single form too: a node that fails after the transfer was recorded answers 202 submitted with its poll URL; reconcile pays it once", {
    timeout: 120_000,
  }, async () => {
    const { brand, wallet, ids } = await deliveredMilestones(1);
    const milestoneId = ids[0] as string;
    const proxy = await startRpcProxy(chainConfig().rpcUrl);
    let res: Awaited<ReturnType<typeof call>>;
    try {
      // The broadcast is cut off: the release is signed and recorded, never sent.
      proxy.failing.add("eth_sendRawTransaction");
      res = await withChainEnv({ RPC_URL: proxy.url }, () =>
        call(settleRoute.POST, { token: brand.token, body: { milestoneId } }),
      );
    } finally {
      await proxy.close();
    }
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      outcome: "submitted",
      poll: `/api/milestones/${milestoneId}`,
    });
    const [row] = await settlementRows(milestoneId);
    expect(row?.chainTxId).toBeTruthy();
    expect((res.body as { settlement: { status: string } }).settlement.status).toBe(row?.status);
    expect(await usdcBalance(wallet)).toBe(0n);

    const report = await reconcile(await getDb(), { settlementId: row?.id });
    expect(report.settlements.confirmed).toBe(1);
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(row?.amountUnits);
  });

  it("refuses a malformed bulk in the error envelope: none, more than 100, an id twice, not a UUID", async () => {
    const { brand } = await parties();
    const id = () => crypto.randomUUID();
    const one = id();
    const cases: Array<[string, unknown]> = [
      ["empty", { milestoneIds: [] }],
      ["101 ids", { milestoneIds: Array.from({ length: 101 }, id) }],
      ["a duplicate", { milestoneIds: [one, id(), one] }],
      ["not a UUID", { milestoneIds: [id(), "x"] }],
    ];
    for (const [label, body] of cases) {
      const res = await call(settleRoute.POST, { token: brand.token, body });
      expect(res.status, label).toBe(400);
      expect(res.body.error, label).toMatchObject({
        code: "invalid_request",
        message: expect.any(String),
        requestId: expect.stringMatching(/^req_/),
      });
      expect(res.body.error.details[0].path[0], label).toBe("milestoneIds");
    }
    // Unknown but well-formed ids are each refused, not the request.
    const unknown = await call(settleRoute.POST, {
      token: brand.token,
      body: { milestoneIds: [id()] },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body.results[0]).toMatchObject({
      outcome: "refused",
      error: { code: "not_found" },
    });
  });
});
