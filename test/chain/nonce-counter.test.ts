import { and, eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { takeSignerNonce } from "@/db/queries/chain-transactions";
import { chainTransactions, signerNonces } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import {
  broadcast,
  broadcastAndAwait,
  fillNonceGaps,
  getChainTransaction,
  NONCE_FILL_PURPOSE,
  recordTransaction,
  resumeTransaction,
  sendTransaction,
} from "@/lib/chain/sender";
import { reconcile } from "@/lib/settle/reconcile";
import {
  ageNonceActivity,
  newAddress,
  treasurySender,
  usdcBalance,
  usdcTransfer,
} from "../helpers/treasury";

// The signer's nonce counter is moved on by one locking UPDATE, without looking at the
// transaction log; a nonce that a live row of ours still holds (the counter was rewound,
// or resynchronised from a node that had not seen our recorded rows yet) is caught by the
// sender-nonce unique index at the insert, and the next free one is taken instead.

let db: Db;
let key: Hex;
let treasury: Address;
let usdc: Address;

beforeAll(async () => {
  ({ db, key, treasury, usdc } = await treasurySender());
});

const transfer = (amount: bigint, to = newAddress()) =>
  usdcTransfer(usdc, to, amount, "test:counter");

const minedNonce = () => publicClient().getTransactionCount({ address: treasury });
const balanceOf = (who: Address) => usdcBalance(usdc, who);
const signer = () => ({ chainId: chainConfig().chainId, from: treasury });
/** Every row recorded on `nonce` by this signer. */
const rowsAt = (nonce: number) =>
  db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.chainId, chainConfig().chainId),
        eq(chainTransactions.fromAddress, treasury),
        eq(chainTransactions.nonce, nonce),
      ),
    );

const counter = async () => {
  const [row] = await db
    .select({ next: signerNonces.nextNonce })
    .from(signerNonces)
    .where(
      and(eq(signerNonces.chainId, chainConfig().chainId), eq(signerNonces.address, treasury)),
    );
  return row?.next;
};

describe("the signer's nonce counter", () => {
  it("skips the nonces its own recorded rows hold when it is behind them, and every row is mined once", {
    timeout: 60_000,
  }, async () => {
    // Three rows recorded (signed, not yet sent): they hold three consecutive nonces.
    const held = [];
    for (let i = 1; i <= 3; i++) held.push(await recordTransaction(db, key, transfer(BigInt(i))));
    const first = held[0]?.nonce as number;
    expect(held.map((r) => r.nonce)).toEqual([first, first + 1, first + 2]);
    expect(await counter()).toBe(first + 3);

    // The counter goes back below them, as after a rewind or a resynchronisation from a node
    // that has not seen them.
    await db
      .update(signerNonces)
      .set({ nextNonce: first })
      .where(
        and(eq(signerNonces.chainId, chainConfig().chainId), eq(signerNonces.address, treasury)),
      );

    const next = await recordTransaction(db, key, transfer(4n));
    expect(next.nonce).toBe(first + 3);
    expect(await counter()).toBe(first + 4);

    // All four go out in nonce order and are mined, each once, with the nonce it was given.
    const done = [];
    for (const row of [...held, next]) done.push(await broadcastAndAwait(db, row));
    expect(done.map((r) => r.status)).toEqual(["confirmed", "confirmed", "confirmed", "confirmed"]);
    for (const row of done) {
      const tx = await publicClient().getTransaction({ hash: row.hash as Hex });
      expect(tx.nonce).toBe(row.nonce);
    }
  });

  it("a nonce allocated by a process that died before recording it is filled by reconcile; the transfer behind it is paid once", {
    timeout: 60_000,
  }, async () => {
    await sendTransaction(db, key, transfer(1n)); // the counter row exists and is in step
    // The dead process: the counter moved (its own short statement), nothing was recorded.
    const lost = (await takeSignerNonce(db, signer(), null)) as number;
    expect(lost).toBe(await minedNonce());

    // The next send takes the nonce after it and waits in the node's pool behind the gap.
    const to = newAddress();
    const behind = await broadcast(db, await recordTransaction(db, key, transfer(9n, to)));
    expect(behind.nonce).toBe(lost + 1);
    expect(behind.status).toBe("submitted");
    expect(await minedNonce()).toBe(lost);
    expect(await balanceOf(to)).toBe(0n);

    // Not filled while the allocation is recent (its process may still be recording it)...
    expect(await fillNonceGaps(db, signer())).toBe(0);
    expect(await rowsAt(lost)).toHaveLength(0);
    // ...but once nothing was recorded on it for longer than a recording takes.
    await ageNonceActivity(db, signer(), behind.id);
    const report = await reconcile(db, { transactionId: behind.id });
    expect(report.transactions.confirmed).toBe(1);

    const [fill] = await rowsAt(lost);
    expect(fill?.purpose).toBe(NONCE_FILL_PURPOSE);
    expect(fill?.toAddress).toBe(treasury);
    expect((await getChainTransaction(db, behind.id))?.status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(9n);
    expect(await minedNonce()).toBe(lost + 2);
    // A second pass finds nothing to fill and pays nothing again.
    await reconcile(db, { transactionId: behind.id });
    expect(await rowsAt(lost)).toHaveLength(1);
    expect((await resumeTransaction(db, behind)).status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(9n);
  });

  it("a recording that fails after its nonce was allocated gives the nonce back: later sends are not held", {
    timeout: 60_000,
  }, async () => {
    const start = await minedNonce();
    await sendTransaction(db, key, transfer(1n));
    const to = newAddress();
    await expect(
      recordTransaction(db, key, transfer(5n, to), async () => {
        throw new Error("the caller's records refused");
      }),
    ).rejects.toThrow("the caller's records refused");
    // Nobody allocated after it: the counter takes it back (else a no-op would fill it).
    expect(await rowsAt(start + 1)).toHaveLength(0);
    expect(await counter()).toBe(start + 1);
    // The next send uses it and is mined at once, with no reconcile: nothing waits.
    const next = await sendTransaction(db, key, transfer(6n, to));
    expect(next.nonce).toBe(start + 1);
    expect(next.status).toBe("confirmed");
    expect(await balanceOf(to)).toBe(6n);
    expect(await minedNonce()).toBe(start + 2);
  });

  it("judges a gap's age on the database's clock: an app server whose clock runs ahead does not fill a nonce still being recorded", {
    timeout: 60_000,
  }, async () => {
    await sendTransaction(db, key, transfer(1n)); // the counter row exists and is in step
    // Another process has just allocated this nonce and is recording it...
    const inFlight = (await takeSignerNonce(db, signer(), null)) as number;
    // ...and a transfer recorded just now holds the nonce after it.
    const behind = await recordTransaction(db, key, transfer(2n));
    expect(behind.nonce).toBe(inFlight + 1);

    // This process's clock is a minute ahead of the database's: by its own clock both the
    // counter and the row above the gap would look abandoned. (PGlite runs in this process
    // and reads Date.now for its own clock: that one stays true.)
    const realNow = Date.now.bind(Date);
    const ahead = vi
      .spyOn(Date, "now")
      .mockImplementation(() => realNow() + (new Error().stack?.includes("pglite") ? 0 : 60_000));
    try {
      expect(await fillNonceGaps(db, signer())).toBe(0);
    } finally {
      ahead.mockRestore();
    }
    expect(await rowsAt(inFlight)).toHaveLength(0);

    // Abandoned for real (by the database's clock): a targeted reconcile of the transfer
    // fills the gap below it, and the transfer is mined.
    await ageNonceActivity(db, signer(), behind.id);
    const report = await reconcile(db, { transactionId: behind.id });
    expect(report.transactions.confirmed).toBe(1);
    expect((await rowsAt(inFlight))[0]?.purpose).toBe(NONCE_FILL_PURPOSE);
  });
});
