import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  findIdempotencyKey,
  recordIdempotentResponse,
} from "@/db/queries/idempotency-keys";
import {
  insertSettlement,
  releaseSettlementLease,
  takeSettlementLease,
} from "@/db/queries/settlements";
import { releaseVerifyLease, takeVerifyLease } from "@/db/queries/verifications";
import { idempotencyKeys, milestones, settlements } from "@/db/schema";
import { withIdempotency } from "@/lib/idempotency";
import { makeUser } from "../helpers/users";
import { activeMilestone } from "../verify/fixtures";
import { parties } from "./fixtures";

// Issue 21, point 9. Leases carry an owner token: a caller whose lease ran out (and was
// taken over) cannot clear its successor's. Idempotency keys expire: a request that crashed
// while running no longer blocks its key for ever, and a finished answer is replayed for 24
// hours. Time is moved by rewriting the rows' timestamps, not by waiting.

async function settlementRow() {
  const { brand, creator, wallet } = await parties();
  const { dealId, milestoneId } = await activeMilestone(brand, creator);
  const db = await getDb();
  const row = await insertSettlement(
    db,
    {
      milestoneId,
      dealId,
      via: "direct",
      chainId: 31337,
      recipient: wallet,
      amountUnits: 1n,
      refundUnits: 0n,
      verdictHash: null,
      scoreBps: 10_000,
      revision: 1,
    },
    60,
  );
  if (!row) throw new Error("no settlement row");
  return { row, milestoneId };
}

const expireSettlementLease = async (id: string) =>
  (await getDb())
    .update(settlements)
    .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
    .where(eq(settlements.id, id));

describe("the settlement lease has an owner", () => {
  it("a holder whose lease ran out cannot release the lease of whoever took over", async () => {
    const db = await getDb();
    const { row: created } = await settlementRow();
    expect(created.leaseOwner).toEqual(expect.any(String)); // the inserting caller holds it
    expect(await takeSettlementLease(db, created.id, 60)).toBeNull();

    await expireSettlementLease(created.id); // the first holder stalled past its lease
    const successor = await takeSettlementLease(db, created.id, 60);
    expect(successor?.leaseOwner).toEqual(expect.any(String));
    expect(successor?.leaseOwner).not.toBe(created.leaseOwner);

    // The stalled first holder wakes up and "releases": nothing changes.
    await releaseSettlementLease(db, created.id, created.leaseOwner);
    expect(await takeSettlementLease(db, created.id, 60)).toBeNull(); // still held
    const [held] = await db.select().from(settlements).where(eq(settlements.id, created.id));
    expect(held?.leaseOwner).toBe(successor?.leaseOwner);

    // Its real holder releases it; then anyone may take it.
    await releaseSettlementLease(db, created.id, successor?.leaseOwner ?? null);
    const [freed] = await db.select().from(settlements).where(eq(settlements.id, created.id));
    expect(freed).toMatchObject({ leaseExpiresAt: null, leaseOwner: null });
    expect(await takeSettlementLease(db, created.id, 60)).not.toBeNull();
  });
});

describe("the verifier lease has an owner", () => {
  it("a verifier whose lease ran out cannot release the lease of whoever took over", async () => {
    const db = await getDb();
    const { milestoneId } = await settlementRow();
    await db.update(milestones).set({ revision: 1 }).where(eq(milestones.id, milestoneId));
    const first = await takeVerifyLease(db, milestoneId, 1, 60_000);
    expect(first).toEqual(expect.any(String));
    expect(await takeVerifyLease(db, milestoneId, 1, 60_000)).toBeNull();

    await db
      .update(milestones)
      .set({ verifyLeaseExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(milestones.id, milestoneId));
    const second = await takeVerifyLease(db, milestoneId, 1, 60_000);
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);

    await releaseVerifyLease(db, milestoneId, first as string);
    expect(await takeVerifyLease(db, milestoneId, 1, 60_000)).toBeNull(); // still the second's

    await releaseVerifyLease(db, milestoneId, second as string);
    expect(await takeVerifyLease(db, milestoneId, 1, 60_000)).toEqual(expect.any(String));
  });
});

describe("idempotency keys expire", () => {
  const route = "test:expiry";
  const answer = (n: number) => async () => Response.json({ run: n });
  const age = async (userId: string, key: string, interval: string) =>
    (await getDb())
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - ${interval}::interval` })
      .where(eq(idempotencyKeys.userId, userId));

  it("a request that crashed while running frees its key after 10 minutes, not never", async () => {
    const db = await getDb();
    const { user } = await makeUser("organization");
    const key = "crashed-request";
    const p = { userId: user.id, key, route, request: { a: 1 } };
    // What a crashed request leaves behind: its claim, and no answer.
    const crashed = await claimIdempotencyKey(db, {
      userId: user.id,
      key,
      route,
      requestHash: "ignored-by-expiry",
    });
    expect(crashed).not.toBeNull();
    await db
      .update(idempotencyKeys)
      .set({ requestHash: (await requestHashOf(p.request)) as string })
      .where(eq(idempotencyKeys.userId, user.id));

    // While it may still be running, a retry is told so.
    await expect(withIdempotency(db, p, answer(1))).rejects.toMatchObject({
      code: "settlement_in_progress",
    });
    await age(user.id, key, "9 minutes");
    await expect(withIdempotency(db, p, answer(1))).rejects.toMatchObject({
      code: "settlement_in_progress",
    });

    // Past 10 minutes, no request is still running: the retry runs and its answer is kept.
    await age(user.id, key, "11 minutes");
    const retried = await withIdempotency(db, p, answer(2));
    expect(await retried.json()).toEqual({ run: 2 });
    const replay = await withIdempotency(db, p, answer(3));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual({ run: 2 });

    // The crashed claim, should it ever wake up, can no longer write over the new answer.
    await recordIdempotentResponse(db, { userId: user.id, key }, crashed?.claimId as string, {
      statusCode: 200,
      response: { run: "stale" },
    });
    expect((await findIdempotencyKey(db, { userId: user.id, key }))?.response).toEqual({ run: 2 });
  });

  it("a finished answer is replayed for 24 hours, then the key runs anew and is cleaned up", async () => {
    const db = await getDb();
    const { user } = await makeUser("organization");
    const key = "finished-request";
    const p = { userId: user.id, key, route, request: { b: 2 } };
    expect(await (await withIdempotency(db, p, answer(1))).json()).toEqual({ run: 1 });

    await age(user.id, key, "23 hours");
    expect(await (await withIdempotency(db, p, answer(2))).json()).toEqual({ run: 1 });

    await age(user.id, key, "25 hours");
    expect(await (await withIdempotency(db, p, answer(3))).json()).toEqual({ run: 3 });

    // Reconcile's housekeeping deletes only keys past their 24 hours.
    const other = await makeUser("organization");
    await withIdempotency(db, { ...p, userId: other.user.id }, answer(4));
    await age(other.user.id, key, "25 hours");
    expect(await deleteExpiredIdempotencyKeys(db)).toBeGreaterThanOrEqual(1);
    expect(await findIdempotencyKey(db, { userId: other.user.id, key })).toBeNull();
    expect(await findIdempotencyKey(db, { userId: user.id, key })).not.toBeNull();
  });
});

async function requestHashOf(request: unknown): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}
