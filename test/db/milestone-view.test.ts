import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { loadMilestoneView, loadVisibleMilestoneView } from "@/db/queries/settle-view";
import {
  appeals,
  changeRequests,
  decisions,
  deliverables,
  milestones,
  users,
  verifications,
} from "@/db/schema";
import { activeDeal, parties } from "../settle/fixtures";

// The milestone view (db/queries/settle-view.ts) reads a milestone and its history in one
// statement, each table's rows as jsonb decoded column by column: it must give exactly the
// rows plain selects of those tables give (dates, jsonb, nulls, order by revision).

/** The view as six plain selects. */
async function plain(db: Awaited<ReturnType<typeof getDb>>, id: string) {
  const [[milestone], dv, vf, ap, dc, cr] = await Promise.all([
    db.select().from(milestones).where(eq(milestones.id, id)),
    db
      .select()
      .from(deliverables)
      .where(eq(deliverables.milestoneId, id))
      .orderBy(asc(deliverables.revision)),
    db
      .select()
      .from(verifications)
      .where(eq(verifications.milestoneId, id))
      .orderBy(asc(verifications.revision)),
    db.select().from(appeals).where(eq(appeals.milestoneId, id)),
    db
      .select({ decision: decisions, name: users.displayName })
      .from(decisions)
      .innerJoin(users, eq(users.id, decisions.deciderId))
      .where(eq(decisions.milestoneId, id)),
    db
      .select()
      .from(changeRequests)
      .where(eq(changeRequests.milestoneId, id))
      .orderBy(asc(changeRequests.revision)),
  ]);
  return {
    milestone,
    deliverables: dv,
    verifications: vf,
    appeals: ap,
    decisions: dc,
    changeRequests: cr,
  };
}

describe("milestone view", () => {
  it("reads what plain selects of its tables read, and only for a viewer who may see it", async () => {
    const db = await getDb();
    const p = await parties();
    const [id, id2] = await activeDeal(p.brand, p.creator, 2);
    const mid = id as string;
    const [m] = await db.select().from(milestones).where(eq(milestones.id, mid));
    if (!m) throw new Error("no milestone");
    await db
      .update(milestones)
      .set({ revision: 2, metadata: { a: "b" }, dueAt: new Date("2030-01-02T03:04:05.678Z") })
      .where(eq(milestones.id, mid));
    for (const revision of [2, 1]) {
      await db.insert(deliverables).values({
        milestoneId: mid,
        revision,
        url: `https://x/${revision}`,
        text: "t",
        note: "n'\"",
        submittedBy: p.creator.user.id,
      });
      await db.insert(verifications).values({
        milestoneId: mid,
        revision,
        approved: revision === 2,
        scoreBps: 5000 + revision,
        reasoning: "r",
        missing: ["a", "b"],
        model: "m",
        deductions: [{ share: 0.1, reason: "x" }] as never,
        latencyMs: 3,
        inputTokens: null,
        record: "{}",
        recordHash: "0x1",
      });
    }
    const [appeal] = await db
      .insert(appeals)
      .values({
        milestoneId: mid,
        dealId: m.dealId,
        revision: 1,
        creatorId: p.creator.user.id,
        reason: "why",
        decidedAt: new Date(),
      })
      .returning();
    await db.insert(decisions).values({
      milestoneId: mid,
      dealId: m.dealId,
      revision: 1,
      deciderId: p.brand.user.id,
      approved: false,
      scoreBps: 10,
      reason: "no",
      appealId: appeal?.id,
      record: "{}",
      recordHash: "0x2",
    });
    await db.insert(changeRequests).values({
      milestoneId: mid,
      dealId: m.dealId,
      revision: 1,
      requestedBy: p.brand.user.id,
      message: "more",
    });
    const before = await plain(db, mid);
    const after = await loadMilestoneView(db, mid);
    expect(after).toStrictEqual(before);
    expect(before.decisions.length).toBe(1);
    const empty = await plain(db, id2 as string);
    expect(await loadMilestoneView(db, id2 as string)).toStrictEqual(empty);
    const vis = await loadVisibleMilestoneView(db, p.brand.user, mid);
    if (!vis) throw new Error("not visible to the brand");
    const { deal, settlement, ...rest } = vis;
    expect(deal.id).toBe(m.dealId);
    expect(rest).toStrictEqual(before);
    expect(settlement).toBeNull();
    expect(await loadVisibleMilestoneView(db, p.creator.user, mid)).toBeDefined();
    const other = await parties();
    expect(await loadVisibleMilestoneView(db, other.brand.user, mid)).toBeUndefined();
  });
});
