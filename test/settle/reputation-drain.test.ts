import { and, eq, inArray, like } from "drizzle-orm";
import { type Hex, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import { reputationRegistryAbi } from "@/contracts/artifacts";
import { getDb } from "@/db/client";
import { chainTransactions, type Settlement, settlements } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { milestoneRef, readReputation, recordReputation } from "@/lib/chain/reputation";
import { drainReputationQueue, drainTogether } from "@/lib/settle/reputation";
import { ownChainForFile } from "../helpers/chain-env";
import { bulkSettle, deliveredMilestones } from "./fixtures";

// The drains of the reputation queue (lib/settle/reputation.ts): the after-response drains of
// one process gather what was paid close together into one recordSettlements batch, and two
// drains over the same queue at once (reconcile's and the after-response one, two processes)
// never carry the same record: the registry would refuse the second as AlreadyRecorded.
// This file's own anvil: some tests hold its mining to keep a batch in flight.

const chain = ownChainForFile();

/** `count` milestones of one deal paid (their records queued, none drained: no request scope). */
async function paidQueued(count: number) {
  const { brand, wallet, ids } = await deliveredMilestones(count);
  const res = await bulkSettle(brand, ids);
  expect(res.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(
    ids.map(() => "paid"),
  );
  const rows = await rowsOf(ids);
  expect(rows.map((r) => r.reputationTxHash)).toEqual(ids.map(() => null));
  return { wallet, rows };
}

async function rowsOf(milestoneIds: string[]): Promise<Settlement[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(settlements)
    .where(inArray(settlements.milestoneId, milestoneIds));
  return milestoneIds.map((id) => rows.find((r) => r.milestoneId === id) as Settlement);
}

/** The registry's SettlementRecorded events for these milestones, in chain order. */
async function recordedOnChain(milestoneIds: string[]) {
  const registry = chainConfig().registry as Hex;
  const logs = await publicClient().getLogs({ address: registry, fromBlock: 0n });
  const refs = new Set(milestoneIds.map(milestoneRef));
  return parseEventLogs({ abi: reputationRegistryAbi, logs, eventName: "SettlementRecorded" })
    .filter((e) => refs.has(e.args.milestoneRef))
    .map((e) => ({ ref: e.args.milestoneRef, hash: e.transactionHash }));
}

/** Our reputation transactions, batches and single records, that name these milestones. */
async function reputationTransactions(milestoneIds: string[]) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(chainTransactions)
    .where(like(chainTransactions.purpose, "reputation%"));
  const needles = milestoneIds.map((id) => milestoneRef(id).slice(2));
  return rows.filter((r) => needles.some((n) => r.data.includes(n) || r.purpose.includes(n)));
}

/** Resolves once a reputation batch carrying `milestoneId` is recorded (signed, in flight). */
async function batchInFlight(milestoneId: string) {
  const db = await getDb();
  const needle = milestoneRef(milestoneId).slice(2);
  for (let i = 0; i < 400; i++) {
    const rows = await db
      .select()
      .from(chainTransactions)
      .where(
        and(
          like(chainTransactions.purpose, "reputation-batch:%"),
          eq(chainTransactions.status, "submitted"),
        ),
      );
    const found = rows.find((r) => r.data.includes(needle));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no reputation batch carrying ${milestoneId} in flight`);
}

/** Resolves once a drain has taken these settlements' records (their lease is set). */
async function leased(milestoneIds: string[]) {
  for (let i = 0; i < 400; i++) {
    const rows = await rowsOf(milestoneIds);
    if (rows.every((r) => r.reputationLeaseUntil)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the records were not taken by a drain");
}

/** Mines what waits in the pool and mines every transaction as it comes again. */
async function mineAgain() {
  await chain.rpc("evm_setAutomine", [true]);
  await chain.rpc("evm_mine");
}

describe("reputation drains", () => {
  it("settlements paid close together, each scheduled on its own, are recorded in one recordSettlements transaction, each once", {
    timeout: 60_000,
  }, async () => {
    const { wallet, rows } = await paidQueued(5);
    const db = await getDb();
    // As five settles answered back to back would: one drainTogether each, none awaited
    // before the last is scheduled (the first drain is still gathering).
    await Promise.all(rows.map((s) => drainTogether(db, [s.id])));

    const after = await rowsOf(rows.map((r) => r.milestoneId));
    const hashes = new Set(after.map((r) => r.reputationTxHash));
    expect(hashes.size).toBe(1);
    const txs = await reputationTransactions(rows.map((r) => r.milestoneId));
    expect(txs.map((t) => [t.purpose.split(":")[0], t.status, t.hash])).toEqual([
      ["reputation-batch", "confirmed", [...hashes][0]],
    ]);
    const events = await recordedOnChain(rows.map((r) => r.milestoneId));
    expect(events).toHaveLength(5);
    expect(new Set(events.map((e) => e.ref)).size).toBe(5);
    expect(new Set(events.map((e) => e.hash))).toEqual(hashes);
    expect((await readReputation(wallet)).count).toBe(5);
  });

  it("settlements scheduled while a drain runs are recorded together by the next one", {
    timeout: 60_000,
  }, async () => {
    const { wallet, rows } = await paidQueued(4);
    const [a, b, c, d] = rows as [Settlement, Settlement, Settlement, Settlement];
    const db = await getDb();
    await chain.rpc("evm_setAutomine", [false]);
    let first: Promise<void>;
    let next: Promise<unknown>;
    try {
      first = drainTogether(db, [a.id, b.id]);
      // The first drain's batch is sent and waits to be mined: the drain is running.
      const batch = await batchInFlight(a.milestoneId);
      expect(batch.data).toContain(milestoneRef(b.milestoneId).slice(2));
      next = Promise.all([drainTogether(db, [c.id]), drainTogether(db, [d.id])]);
    } finally {
      await mineAgain();
    }
    await Promise.all([first, next]);

    const after = await rowsOf(rows.map((r) => r.milestoneId));
    const [h1, h2] = [after[0]?.reputationTxHash, after[2]?.reputationTxHash];
    expect(after.map((r) => r.reputationTxHash)).toEqual([h1, h1, h2, h2]);
    expect(h1).not.toBe(h2);
    const txs = await reputationTransactions(rows.map((r) => r.milestoneId));
    expect(txs.map((t) => [t.purpose.split(":")[0], t.status]).sort()).toEqual([
      ["reputation-batch", "confirmed"],
      ["reputation-batch", "confirmed"],
    ]);
    const events = await recordedOnChain(rows.map((r) => r.milestoneId));
    // Each once, by its own drain's batch (in a batch, in any order).
    const byRef = (x: [Hex, unknown][]) => x.sort(([p], [q]) => p.localeCompare(q));
    expect(byRef(events.map((e) => [e.ref, e.hash]))).toEqual(
      byRef(after.map((r) => [milestoneRef(r.milestoneId), r.reputationTxHash])),
    );
    expect((await readReputation(wallet)).count).toBe(4);
  });

  it("two drains over the same queue at once: a record one carries in its batch is not sent by the other, alone or in a batch", {
    timeout: 60_000,
  }, async () => {
    const { wallet, rows } = await paidQueued(3);
    const ids = rows.map((r) => r.milestoneId);
    const db = await getDb();
    const dealId = rows[0]?.dealId as string;
    await chain.rpc("evm_setAutomine", [false]);
    let first: ReturnType<typeof drainReputationQueue>;
    let others: Promise<Awaited<ReturnType<typeof drainReputationQueue>>[]>;
    try {
      // The after-response drain's batch is in flight…
      first = drainReputationQueue(db, { settlementIds: rows.map((r) => r.id) });
      await batchInFlight(ids[0] as string);
      // …when reconcile drains the deal's queue, and another process one settlement of it.
      others = Promise.all([
        drainReputationQueue(db, { dealId }),
        drainReputationQueue(db, { settlementId: rows[0]?.id }),
      ]);
      // Neither waits on the chain for them: the batch carries them.
      expect(await others).toEqual([
        { recorded: 0, failed: 0 },
        { recorded: 0, failed: 0 },
      ]);
      // A record asked for outside the queue (no lease: a script, an operator) is refused by
      // the gas estimate, which sees the batch in the node's pool: already recorded, not sent.
      const s = rows[1] as Settlement;
      const alone = await recordReputation(db, {
        wallet,
        scoreBps: s.scoreBps,
        milestoneId: s.milestoneId,
        amountUnits: s.amountUnits,
      });
      expect(alone).toMatchObject({ status: "already_recorded", txHash: null });
    } finally {
      await mineAgain();
    }
    expect(await first).toEqual({ recorded: 3, failed: 0 });

    const after = await rowsOf(ids);
    const hash = after[0]?.reputationTxHash;
    expect(after.map((r) => r.reputationTxHash)).toEqual(ids.map(() => hash));
    // Sent once: no record alone (refused or not), no second batch.
    const txs = await reputationTransactions(ids);
    expect(txs.map((t) => [t.purpose.split(":")[0], t.status, t.hash])).toEqual([
      ["reputation-batch", "confirmed", hash],
    ]);
    expect((await recordedOnChain(ids)).map((e) => e.hash)).toEqual(ids.map(() => hash));
    expect((await readReputation(wallet)).count).toBe(3);
    // Nothing left: however often it runs, nothing more is sent.
    expect(await drainReputationQueue(db, { dealId })).toEqual({ recorded: 0, failed: 0 });
  });

  it("a drain that finds another's batch in flight follows it, then sends its own records in a batch of their own", {
    timeout: 60_000,
  }, async () => {
    const one = await paidQueued(2);
    const two = await paidQueued(2);
    const db = await getDb();
    await chain.rpc("evm_setAutomine", [false]);
    let first: ReturnType<typeof drainReputationQueue>;
    let second: ReturnType<typeof drainReputationQueue>;
    try {
      first = drainReputationQueue(db, { dealId: one.rows[0]?.dealId });
      await batchInFlight(one.rows[0]?.milestoneId as string);
      // One batch in flight per registry: this drain, once it has taken its records, finds
      // that one and waits for it first.
      second = drainReputationQueue(db, { dealId: two.rows[0]?.dealId });
      await leased(two.rows.map((r) => r.milestoneId));
    } finally {
      await mineAgain();
    }
    expect(await Promise.all([first, second])).toEqual([
      { recorded: 2, failed: 0 },
      { recorded: 2, failed: 0 },
    ]);
    const ids = two.rows.map((r) => r.milestoneId);
    const after = await rowsOf(ids);
    const hash = after[0]?.reputationTxHash;
    expect(after.map((r) => r.reputationTxHash)).toEqual([hash, hash]);
    expect(hash).not.toBe(
      (await rowsOf([one.rows[0]?.milestoneId as string]))[0]?.reputationTxHash,
    );
    const txs = await reputationTransactions(ids);
    expect(txs.map((t) => [t.purpose.split(":")[0], t.status, t.hash])).toEqual([
      ["reputation-batch", "confirmed", hash],
    ]);
    expect((await recordedOnChain(ids)).map((e) => e.hash)).toEqual([hash, hash]);
  });
});
