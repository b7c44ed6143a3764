import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { getDb } from "@/db/client";
import { recordLinkedTransaction } from "@/db/queries/settle-view";
import { chainTransactions, settlements } from "@/db/schema";
import { call } from "../helpers/http";
import { submit } from "../verify/fixtures";
import { activeDeal, parties, settlementRows } from "./fixtures";

// A release is recorded and its settlement linked in one statement (db/queries/settle-view.ts):
// nothing is recorded for a settlement already confirmed, and nothing is written when a live
// row holds the nonce.

const release = (over: Partial<typeof chainTransactions.$inferInsert> = {}) => ({
  id: randomUUID(),
  chainId: 31337,
  fromAddress: `0x${randomUUID().replaceAll("-", "").padEnd(40, "0")}`,
  nonce: 0,
  toAddress: "0x0000000000000000000000000000000000000001",
  data: "0x",
  valueWei: 0n,
  rawTx: "0x01",
  hash: `0x${randomUUID().replaceAll("-", "")}`,
  purpose: "test",
  ...over,
});

describe("recordLinkedTransaction", () => {
  it("records and links; refuses a confirmed settlement; writes nothing on a held nonce", async () => {
    const db = await getDb();
    const p = await parties();
    const [milestoneId] = await activeDeal(p.brand, p.creator, 1);
    await submit(p.creator, milestoneId as string);
    const res = await call(settleRoute.POST, { token: p.brand.token, body: { milestoneId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [paid] = await settlementRows(milestoneId as string);
    if (!paid) throw new Error("no settlement");

    // Confirmed: nothing recorded, the settlement as it was.
    const refused = release();
    await expect(recordLinkedTransaction(db, paid.id, refused)).rejects.toThrow(/confirmed/);
    expect(
      await db.select().from(chainTransactions).where(eq(chainTransactions.id, refused.id)),
    ).toEqual([]);
    const [after] = await settlementRows(milestoneId as string);
    expect(after).toEqual(paid);

    // Not confirmed: recorded and linked in one go.
    await db.update(settlements).set({ status: "pending" }).where(eq(settlements.id, paid.id));
    const first = release();
    const out = await recordLinkedTransaction(db, paid.id, first);
    expect(out?.linked).toBe(true);
    expect(out?.recorded).toMatchObject({ id: first.id, hash: first.hash, status: "pending" });
    const [linked] = await settlementRows(milestoneId as string);
    expect(linked).toMatchObject({ chainTxId: first.id, txHash: first.hash, status: "submitted" });

    // Its nonce held by that live row: nothing written, the link untouched.
    const second = release({ fromAddress: first.fromAddress, nonce: first.nonce });
    expect(await recordLinkedTransaction(db, paid.id, second)).toBeUndefined();
    expect(
      await db.select().from(chainTransactions).where(eq(chainTransactions.id, second.id)),
    ).toEqual([]);
    const [still] = await settlementRows(milestoneId as string);
    expect(still).toMatchObject({ chainTxId: first.id, txHash: first.hash });
  });
});
