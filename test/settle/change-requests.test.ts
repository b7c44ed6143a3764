import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as decisionRoute from "@/app/api/milestones/[id]/decision/route";
import * as refundRoute from "@/app/api/milestones/[id]/refund/route";
import * as requestChangesRoute from "@/app/api/milestones/[id]/request-changes/route";
import * as milestoneRoute from "@/app/api/milestones/[id]/route";
import * as settleRoute from "@/app/api/settle/route";
import * as verifyRoute from "@/app/api/verify/route";
import { getDb } from "@/db/client";
import {
  changeRequests,
  dealEvents,
  deliverables,
  emailOutbox,
  milestones,
  notifications,
  webhookDeliveries,
  webhookEndpoints,
} from "@/db/schema";
import { getMilestone } from "@/lib/deals/milestones";
import { requestChanges } from "@/lib/settle/change-requests";
import { settleMilestone } from "@/lib/settle/settle";
import { checkTimers } from "@/lib/settle/timers";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import {
  answering,
  goodDeliverable,
  storedVerifications,
  submit,
  submittedMilestone,
  textResult,
} from "../verify/fixtures";
import { parties, settlementRows, transfersTo, usdcBalance } from "./fixtures";

// Change requests (issue 24, item 3): on a submission awaiting review the brand asks for
// changes with a message. The milestone goes back to the creator without a verdict; nothing
// is paid, refunded or rejected; the next submission is a new revision whose review window
// starts afresh, and the revision sent back can no longer be settled on its old verdict.

// Rules only (no judgement-only criterion): a verdict on it is certain and settles alone.
const adOnly = { hashtags: ["#ad"], mentions: [], links: [], criteria: [] };
const approving = () => answering({ approved: true, score: 0.9, reasoning: "Good.", missing: [] });
const MESSAGE = "Please put the discount code LAUNCH10 in the first line.";

const ask = (user: TestUser, milestoneId: string, body: unknown = { message: MESSAGE }) =>
  call(requestChangesRoute.POST, { params: { id: milestoneId }, token: user.token, body });
const settle = (user: TestUser, milestoneId: string) =>
  call(settleRoute.POST, { token: user.token, body: { milestoneId } });

async function settleAs(user: TestUser, milestoneId: string, model = approving()) {
  return settleMilestone(
    await getDb(),
    user.user,
    { milestoneId, via: "direct" },
    { verifier: { model, retryDelayMs: 1, timeoutMs: 2_000 } },
  );
}

async function milestoneRow(milestoneId: string) {
  const db = await getDb();
  const [m] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
  return m;
}

async function eventsOf(milestoneId: string) {
  const db = await getDb();
  return db
    .select()
    .from(dealEvents)
    .where(eq(dealEvents.milestoneId, milestoneId))
    .orderBy(dealEvents.seq);
}

async function changeRequestRows(milestoneId: string) {
  const db = await getDb();
  return db.select().from(changeRequests).where(eq(changeRequests.milestoneId, milestoneId));
}

describe("POST /api/milestones/:id/request-changes", () => {
  it("sends the submission back with the message: no verdict, nothing paid, the creator told", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId, dealId } = await submittedMilestone(
      brand,
      creator,
      goodDeliverable,
      adOnly,
    );
    // The creator subscribes to the new event type.
    const db = await getDb();
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        userId: creator.user.id,
        url: "https://hooks.example/milestone",
        eventTypes: ["milestone.changes_requested"],
        secret: "whsec_test",
      })
      .returning();
    // The brand looked at it first: a verdict on revision 1 exists.
    const verified = await call(verifyRoute.POST, {
      token: brand.token,
      body: { milestoneId },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);

    const res = await ask(brand, milestoneId, { message: `  ${MESSAGE}  ` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.changeRequest).toMatchObject({ revision: 1, message: MESSAGE });
    expect(res.body.milestone).toMatchObject({
      status: "pending",
      verdict: null,
      settlement: null,
      changeRequest: { revision: 1, message: MESSAGE },
      deliverable: { revision: 1 },
      review: { windowEndsAt: null, creatorMaySettle: false, decision: null, appeal: null },
    });
    expect(res.body.milestone.history.changeRequests).toHaveLength(1);
    // The verdict on revision 1 stays in the history, as a record of what was said.
    expect(res.body.milestone.history.verdicts).toHaveLength(1);

    // The creator sees the same, through the milestone's own endpoint.
    const seen = await call(milestoneRoute.GET, {
      params: { id: milestoneId },
      token: creator.token,
    });
    expect(seen.body.milestone.changeRequest.message).toBe(MESSAGE);

    // Nothing was paid, refunded or rejected.
    expect(await settlementRows(milestoneId)).toEqual([]);
    expect(await transfersTo(wallet)).toHaveLength(0);
    const events = await eventsOf(milestoneId);
    expect(events.map((e) => e.type)).toEqual([
      "submitted",
      "verified",
      "milestone.changes_requested",
    ]);
    const [event] = events.slice(-1);
    expect(event).toMatchObject({
      actorId: brand.user.id,
      data: { revision: 1, message: MESSAGE, changeRequestId: res.body.changeRequest.id },
      object: { status: "pending", revision: 1 },
      previousAttributes: { status: "submitted" },
    });
    expect(event?.dealId).toBe(dealId);

    // Fan-out: the creator's inbox, e-mail and webhook; not the brand's (it did it).
    const told = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.eventId, event?.id ?? ""));
    expect(told).toEqual([{ userId: creator.user.id }]);
    const mailed = await db
      .select({ userId: emailOutbox.userId })
      .from(emailOutbox)
      .where(eq(emailOutbox.eventId, event?.id ?? ""));
    expect(mailed).toEqual([{ userId: creator.user.id }]);
    const hooks = await db
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event?.id ?? ""));
    expect(hooks).toEqual([{ endpointId: endpoint?.id }]);
  });

  it("the revision sent back cannot be settled, verified or decided; the next one is judged afresh and pays once", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    expect(
      (await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } })).status,
    ).toBe(200);
    expect((await ask(brand, milestoneId)).status).toBe(201);

    for (const res of [
      await settle(brand, milestoneId),
      await call(verifyRoute.POST, { token: brand.token, body: { milestoneId } }),
      await call(decisionRoute.POST, {
        params: { id: milestoneId },
        token: brand.token,
        body: { approve: true, score: 1, reason: "Pay it anyway." },
      }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error).toMatchObject({ code: "changes_requested", details: { revision: 1 } });
    }
    // The creator cannot settle it either, however long the brand waits.
    const db = await getDb();
    await db
      .update(deliverables)
      .set({ submittedAt: sql`${deliverables.submittedAt} - interval '30 days'` })
      .where(eq(deliverables.milestoneId, milestoneId));
    expect((await settle(creator, milestoneId)).body.error.code).toBe("review_window_open");
    expect(await checkTimers(db)).toMatchObject({ reviewWindowsElapsed: 0 });

    // The creator submits again: revision 2, submitted, its own review window from now.
    const before = Date.now();
    expect(await submit(creator, milestoneId, goodDeliverable)).toBe(2);
    const view = await getMilestone(db, creator.user, milestoneId);
    expect(view).toMatchObject({ status: "submitted", changeRequest: null, verdict: null });
    const windowEnds = Date.parse(view.review.windowEndsAt ?? "");
    expect(windowEnds).toBeGreaterThanOrEqual(before + 7 * 86400_000 - 1000);
    expect((await settle(creator, milestoneId)).body.error.code).toBe("review_window_open");

    // The brand settles revision 2: a new verdict is made for it (revision 1's is not used).
    const paid = await settleAs(brand, milestoneId);
    expect(paid.outcome).toBe("paid");
    if (paid.outcome !== "paid") throw new Error("not paid");
    expect(paid.verdict.revision).toBe(2);
    expect((await storedVerifications(milestoneId)).map((v) => v.revision).sort()).toEqual([1, 2]);
    const [settlement] = await settlementRows(milestoneId);
    expect(settlement).toMatchObject({
      revision: 2,
      status: "confirmed",
      amountUnits: 45_000_000n,
    });
    expect(await usdcBalance(wallet)).toBe(45_000_000n);
    expect(await transfersTo(wallet)).toHaveLength(1);
    // And now it is too late to ask for changes.
    const late = await ask(brand, milestoneId);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("already_settled");
  });

  it("a milestone sent back is not overdue: the brand cannot take the money back with it", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const db = await getDb();
    await db
      .update(milestones)
      .set({ dueAt: new Date(Date.now() - 86400_000) })
      .where(eq(milestones.id, milestoneId));
    expect((await ask(brand, milestoneId)).status).toBe(201);
    const view = await getMilestone(db, brand.user, milestoneId);
    expect(view.review.overdue).toBe(false);
    const refund = await call(refundRoute.POST, {
      params: { id: milestoneId },
      token: brand.token,
      body: {},
    });
    expect(refund.status).toBe(409);
    expect(refund.body.error.code).toBe("invalid_state");
    expect((await checkTimers(db)).overdue).toBe(0);
    expect((await eventsOf(milestoneId)).map((e) => e.type)).not.toContain("overdue");
    expect(await settlementRows(milestoneId)).toEqual([]);
  });

  it("validates the message: empty, blank, missing or over 2,000 characters is 400", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    for (const body of [
      { message: "" },
      { message: "   " },
      {},
      { message: "x".repeat(2001) },
      { message: 5 },
    ]) {
      const res = await ask(brand, milestoneId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.details[0].path).toEqual(["message"]);
    }
    const malformedId = await call(requestChangesRoute.POST, {
      params: { id: "not-a-uuid" },
      token: brand.token,
      body: { message: MESSAGE },
    });
    expect(malformedId.status).toBe(400);
    // 2,000 characters is fine.
    expect((await ask(brand, milestoneId, { message: "y".repeat(2000) })).status).toBe(201);
  });

  it("only the deal's brand may ask: the creator gets 403, anyone else 404, nobody 401", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const mine = await ask(creator, milestoneId);
    expect(mine.status).toBe(403);
    expect(mine.body.error.code).toBe("forbidden");
    const otherBrand = await makeUser("organization");
    const other = await ask(otherBrand, milestoneId);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe("not_found");
    const anonymous = await call(requestChangesRoute.POST, {
      params: { id: milestoneId },
      body: { message: MESSAGE },
    });
    expect(anonymous.status).toBe(401);
    expect(await changeRequestRows(milestoneId)).toEqual([]);
    expect((await milestoneRow(milestoneId))?.status).toBe("submitted");
  });

  it("refuses what is not awaiting review", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const db = await getDb();
    await db
      .update(milestones)
      .set({ status: "pending", revision: 0 })
      .where(eq(milestones.id, milestoneId));
    expect((await ask(brand, milestoneId)).body.error.code).toBe("no_deliverable");
    await db
      .update(milestones)
      .set({ status: "rejected", revision: 1 })
      .where(eq(milestones.id, milestoneId));
    const rejected = await ask(brand, milestoneId);
    expect(rejected.status).toBe(409);
    expect(rejected.body.error.code).toBe("invalid_state");
    expect(await changeRequestRows(milestoneId)).toEqual([]);
  });
});

describe("exactly once", () => {
  it("concurrent repeats record one request and one event; the rest answer 409", async () => {
    const { brand, creator } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const results = await Promise.all([1, 2, 3, 4].map(() => ask(brand, milestoneId)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const r of results)
      if (r.status === 409) expect(r.body.error.code).toBe("changes_already_requested");
    expect(await changeRequestRows(milestoneId)).toHaveLength(1);
    const types = (await eventsOf(milestoneId)).map((e) => e.type);
    expect(types.filter((t) => t === "milestone.changes_requested")).toHaveLength(1);
  });

  it("a settle that paid first wins; one that claimed (holds the lease) wins too, with nothing half-done", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    // Paid first.
    expect((await settleAs(brand, milestoneId)).outcome).toBe("paid");
    const res = await ask(brand, milestoneId);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("already_settled");
    expect((await milestoneRow(milestoneId))?.status).toBe("paid");

    // Claimed but not confirmed: the settlement is in progress (its lease held).
    const second = await parties();
    const ids = await submittedMilestone(second.brand, second.creator, goodDeliverable, adOnly);
    const db = await getDb();
    await db.execute(sql`
      insert into settlements (milestone_id, deal_id, via, chain_id, recipient, amount_units,
                               score_bps, revision, status, lease_expires_at, lease_owner)
      values (${ids.milestoneId}, ${ids.dealId}, 'direct', 31337, ${second.wallet}, 45000000,
              9000, 1, 'pending', now() + interval '1 minute', gen_random_uuid())`);
    await db
      .update(milestones)
      .set({ status: "approved" })
      .where(eq(milestones.id, ids.milestoneId));
    const during = await ask(second.brand, ids.milestoneId);
    expect(during.status).toBe(409);
    expect(during.body.error).toMatchObject({
      code: "settlement_in_progress",
      details: { settlement: { status: "pending", inFlight: true } },
    });
    expect(await changeRequestRows(ids.milestoneId)).toEqual([]);
    expect((await milestoneRow(ids.milestoneId))?.status).toBe("approved");
    expect((await eventsOf(ids.milestoneId)).map((e) => e.type)).toEqual(["submitted"]);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it("a request made while a settle is still judging wins: the settle's claim answers 409 and moves nothing", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const db = await getDb();
    let requested: Awaited<ReturnType<typeof requestChanges>> | undefined;
    // The verifier's model is called with no lock or transaction held; while it "thinks",
    // the brand asks for changes (committed before the settle goes on to its claim).
    const model = answering(async () => {
      requested = await requestChanges(db, brand.user, { milestoneId, message: MESSAGE });
      return textResult(
        JSON.stringify({ approved: true, score: 0.9, reasoning: "Good.", missing: [] }),
      );
    });
    await expect(settleAs(brand, milestoneId, model)).rejects.toMatchObject({
      code: "changes_requested",
    });
    expect(requested?.milestone.status).toBe("pending");
    expect((await milestoneRow(milestoneId))?.status).toBe("pending");
    expect(await settlementRows(milestoneId)).toEqual([]);
    expect(await transfersTo(wallet)).toHaveLength(0);
    const types = (await eventsOf(milestoneId)).map((e) => e.type);
    expect(types).not.toContain("approved");
    expect(types).toContain("milestone.changes_requested");

    // The same with a failing verdict: the settle does not turn it into a rejection.
    const other = await parties();
    const ids = await submittedMilestone(other.brand, other.creator, goodDeliverable, adOnly);
    const failing = answering(async () => {
      await requestChanges(db, other.brand.user, {
        milestoneId: ids.milestoneId,
        message: MESSAGE,
      });
      return textResult(
        JSON.stringify({
          approved: false,
          score: 0.2,
          reasoning: "Off.",
          missing: ["hashtag #ad"],
        }),
      );
    });
    await expect(settleAs(other.brand, ids.milestoneId, failing)).rejects.toMatchObject({
      code: "changes_requested",
    });
    expect((await milestoneRow(ids.milestoneId))?.status).toBe("pending");
    expect((await eventsOf(ids.milestoneId)).map((e) => e.type)).not.toContain("rejected");
  });

  it("raced with a settle: exactly one of them takes effect, never both", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator, goodDeliverable, adOnly);
    const [settled, asked] = await Promise.allSettled([
      settleAs(brand, milestoneId),
      ask(brand, milestoneId),
    ]);
    const rows = await changeRequestRows(milestoneId);
    const settlementsMade = await settlementRows(milestoneId);
    const askedRes = asked.status === "fulfilled" ? asked.value : undefined;
    if (askedRes?.status === 201) {
      // The request won: the settle refused at its claim, nothing moved.
      expect(settled.status).toBe("rejected");
      expect((settled as PromiseRejectedResult).reason.code).toBe("changes_requested");
      expect(rows).toHaveLength(1);
      expect(settlementsMade).toEqual([]);
      expect(await transfersTo(wallet)).toHaveLength(0);
      expect((await milestoneRow(milestoneId))?.status).toBe("pending");
    } else {
      expect(["already_settled", "settlement_in_progress"]).toContain(askedRes?.body.error.code);
      expect(settled.status).toBe("fulfilled");
      expect(rows).toEqual([]);
      expect(settlementsMade).toHaveLength(1);
      expect(await transfersTo(wallet)).toHaveLength(1);
    }
    const db = await getDb();
    const [count] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(dealEvents)
      .where(
        and(
          eq(dealEvents.milestoneId, milestoneId),
          sql`${dealEvents.type} in ('approved', 'milestone.changes_requested')`,
        ),
      );
    expect(count?.n).toBe(1);
  });
});
