import { and, eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { signerNonces } from "@/db/schema";
import { chainConfig, publicClient } from "@/lib/chain/config";
import { broadcastAndAwait, recordTransaction } from "@/lib/chain/sender";
import { newAddress, treasurySender, usdcTransfer } from "../helpers/treasury";

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

const transfer = (amount: bigint) => usdcTransfer(usdc, newAddress(), amount, "test:counter");

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
});
