import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { chainTransactions, chainTransactionVersions } from "@/db/schema";
import type { AnvilInstance } from "@/lib/chain/anvil";
import { publicClient } from "@/lib/chain/config";
import { getChainTransaction, recordTransaction, replaceStuck } from "@/lib/chain/sender";
import { checkHealth } from "@/lib/health";
import { reconcile } from "@/lib/settle/reconcile";
import { settleMilestone } from "@/lib/settle/settle";
import { setChainEnv, startOwnChain, withChainEnv } from "../helpers/chain-env";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { newAddress, treasurySender, usdcTransfer } from "../helpers/treasury";
import { parties, settlementRows, transfersTo, usdcBalance } from "../settle/fixtures";
import { answering, approve, goodDeliverable, submittedMilestone } from "../verify/fixtures";

// Stuck transactions on a chain that makes a block every second (anvil --block-time 1, this
// file's own node): a release left unmined is re-signed on the SAME nonce with higher fees;
// every version is recorded; whichever version is mined is the payment, and there is
// exactly one. Where a test needs the chain to stand still it turns interval mining off
// (evm_setIntervalMining 0) and back on: what it waits for is the chain's state, never time.

let anvil: AnvilInstance;
const restores: Array<() => void> = [];

beforeAll(async () => {
  const own = await startOwnChain({ blockTime: 1 });
  anvil = own.anvil;
  restores.push(
    own.restore,
    // Nothing is replaced unless a step below says so (TX_REPLACE_AFTER_SECONDS 0 there).
    setChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "10", TX_REPLACE_AFTER_SECONDS: "3600" }),
  );
});

// A test that failed with the chain standing still leaves it moving for the next one.
afterEach(async () => {
  await thaw();
});

afterAll(async () => {
  await anvil?.stop();
  for (const restore of restores.reverse()) restore();
});

async function rpc(method: string, params: unknown[] = []) {
  const res = await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const freeze = () => rpc("evm_setIntervalMining", [0]);
const thaw = () => rpc("evm_setIntervalMining", [1]);

/** A bounded poll for a condition on the chain or the database (never a fixed sleep). */
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>) {
  for (let i = 0; i < 300; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const receipt = (hash: string) =>
  publicClient()
    .getTransactionReceipt({ hash: hash as Hex })
    .catch(() => null);

const versionsOf = async (txId: string) => {
  const db = await getDb();
  return db
    .select()
    .from(chainTransactionVersions)
    .where(eq(chainTransactionVersions.transactionId, txId));
};

/** Reconcile of one settlement, replacing what is unmined, waiting 1 s for receipts. */
const reconcileReplacing = (db: Awaited<ReturnType<typeof getDb>>, settlementId?: string) =>
  withChainEnv({ TX_REPLACE_AFTER_SECONDS: "0", TX_RECEIPT_TIMEOUT_SECONDS: "1" }, () =>
    reconcile(db, { settlementId }),
  );

/** A milestone ready to settle, and its settle left `submitted` on a chain that stands still. */
async function stuckSettlement() {
  const { brand, creator, wallet } = await parties();
  const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable);
  const db = await getDb();
  await freeze();
  const sent = await withChainEnv({ TX_RECEIPT_TIMEOUT_SECONDS: "1" }, () =>
    settleMilestone(
      db,
      brand.user,
      { milestoneId, via: "direct" },
      { verifier: { model: answering(approve) } },
    ),
  );
  expect(sent.outcome).toBe("submitted");
  const [s] = await settlementRows(milestoneId);
  expect(s?.status).toBe("submitted");
  const original = await getChainTransaction(db, s?.chainTxId as string);
  expect(original?.versions).toBe(1);
  return {
    db,
    brand,
    wallet,
    milestoneId,
    settlement: s,
    original: original as NonNullable<typeof original>,
  };
}

describe("a stuck release", () => {
  it("under-priced: replaced on the same nonce with higher fees, mined, paid once", {
    timeout: 120_000,
  }, async () => {
    const { db, wallet, milestoneId, settlement, original } = await stuckSettlement();
    // The base fee jumps above what the release offers: the next block leaves it out.
    await rpc("anvil_setNextBlockBaseFeePerGas", [`0x${(200n * 10n ** 9n).toString(16)}`]);
    await rpc("evm_mine");
    expect(await receipt(original.hash as string)).toBeNull();

    // Reconcile finds it unmined past TX_REPLACE_AFTER_SECONDS: a new version, same nonce.
    const stillStuck = await reconcileReplacing(db, settlement?.id);
    expect(stillStuck.settlements.stillPending).toBe(1);
    const replaced = await getChainTransaction(db, original.id);
    expect(replaced?.nonce).toBe(original.nonce);
    expect(replaced?.hash).not.toBe(original.hash);
    expect(replaced?.versions).toBe(2);
    const versions = await versionsOf(original.id);
    expect(versions.map((v) => v.hash).sort()).toEqual(
      [original.hash, replaced?.hash].sort() as string[],
    );
    const [first, second] = [
      versions.find((v) => v.hash === original.hash),
      versions.find((v) => v.hash === replaced?.hash),
    ];
    // The EIP-1559 replacement rule: at least 10 % more on both fees.
    expect((second?.maxFeePerGas ?? 0n) * 10n).toBeGreaterThanOrEqual(
      (first?.maxFeePerGas ?? 0n) * 11n,
    );
    expect((second?.maxPriorityFeePerGas ?? 0n) * 10n).toBeGreaterThanOrEqual(
      (first?.maxPriorityFeePerGas ?? 0n) * 11n,
    );

    await thaw();
    await until("the replacement to be mined", () => receipt(replaced?.hash as string));
    const done = await reconcile(db, { settlementId: settlement?.id });
    expect(done.settlements.confirmed).toBe(1);
    const [paid] = await settlementRows(milestoneId);
    expect(paid?.status).toBe("confirmed");
    expect(paid?.txHash).toBe(replaced?.hash);
    expect(await receipt(original.hash as string)).toBeNull();
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
  });

  it("the original is mined after its replacement was sent: the original is the payment, once", {
    timeout: 120_000,
  }, async () => {
    const { db, wallet, milestoneId, settlement, original } = await stuckSettlement();
    const proxy = await startRpcProxy(anvil.rpcUrl);
    try {
      const held = proxy.hold("eth_sendRawTransaction");
      const run = withChainEnv(
        { RPC_URL: proxy.url, TX_REPLACE_AFTER_SECONDS: "0", TX_RECEIPT_TIMEOUT_SECONDS: "1" },
        () => reconcile(db, { settlementId: settlement?.id }),
      );
      // The replacement is on its way to the node; the original (still in the node's pool)
      // is mined first.
      const [raw] = (await held.arrived) as [Hex];
      await rpc("evm_mine");
      expect((await receipt(original.hash as string))?.status).toBe("success");
      held.release();
      const report = await run;
      expect(report.settlements.confirmed).toBe(1);
      const row = await getChainTransaction(db, original.id);
      expect(row?.status).toBe("confirmed");
      // The mined version is the transaction's; the replacement is kept among its versions.
      expect(row?.hash).toBe(original.hash);
      expect(row?.rawTx).toBe(original.rawTx);
      const versions = await versionsOf(original.id);
      expect(versions).toHaveLength(2);
      expect(versions.some((v) => v.rawTx === raw)).toBe(true);
    } finally {
      await proxy.close();
      await thaw();
    }
    const [paid] = await settlementRows(milestoneId);
    expect(paid?.status).toBe("confirmed");
    expect(paid?.txHash).toBe(original.hash);
    expect(await transfersTo(wallet)).toHaveLength(1);
    expect(await usdcBalance(wallet)).toBe(46_000_000n);
    // Settling again pays nothing more.
    const idle = await reconcile(db, { settlementId: settlement?.id });
    expect(idle.settlements.confirmed).toBe(0);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});

describe("the fee ceiling and the alert", () => {
  it("a replacement never goes above the chain's fee ceiling: no room, no new version", async () => {
    const { db, key, usdc } = await treasurySender();
    await freeze();
    try {
      const row = await recordTransaction(
        db,
        key,
        usdcTransfer(usdc, newAddress(), 1n, "test:ceiling"),
      );
      await db
        .update(chainTransactions)
        .set({ signedAt: new Date(Date.now() - 60_000) })
        .where(eq(chainTransactions.id, row.id));
      const stale = await getChainTransaction(db, row.id);
      const after = await withChainEnv({ TX_MAX_FEE_GWEI: "0.000001" }, () =>
        replaceStuck(db, stale as NonNullable<typeof stale>),
      );
      expect(after.hash).toBe(row.hash);
      expect(after.versions).toBe(1);
      expect(await versionsOf(row.id)).toHaveLength(0);
      await db
        .update(chainTransactions)
        .set({ status: "failed" })
        .where(eq(chainTransactions.id, row.id));
    } finally {
      await thaw();
    }
  });

  it("health is degraded, and an error is logged, while a transaction waits too long", async () => {
    const { db, key, usdc } = await treasurySender();
    const restore = setChainEnv({ TX_STUCK_ALERT_SECONDS: "60" });
    try {
      const row = await recordTransaction(
        db,
        key,
        usdcTransfer(usdc, newAddress(), 1n, "test:alert"),
      );
      await db
        .update(chainTransactions)
        // Older than anything else the shared test database may hold: the oldest one.
        .set({ createdAt: new Date(Date.now() - 24 * 3600_000) })
        .where(eq(chainTransactions.id, row.id));
      const health = await checkHealth();
      expect(health.ok).toBe(true);
      expect(health.degraded?.stuckTransaction).toEqual({
        id: row.id,
        purpose: "test:alert",
        ageSeconds: expect.any(Number),
      });
      await db
        .update(chainTransactions)
        .set({ status: "failed" })
        .where(eq(chainTransactions.id, row.id));
      expect((await checkHealth()).degraded?.stuckTransaction.id).not.toBe(row.id);
    } finally {
      restore();
    }
  });
});
