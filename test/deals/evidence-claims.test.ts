import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as appealRoute from "@/app/api/milestones/[id]/appeal/route";
import * as decisionRoute from "@/app/api/milestones/[id]/decision/route";
import * as deliverableRoute from "@/app/api/milestones/[id]/deliverable/route";
import { getDb } from "@/db/client";
import { listEvidenceClaims } from "@/db/queries/evidence-claims";
import { deals, deliverables, evidenceClaims } from "@/db/schema";
import { postUrlKey } from "@/lib/deals/post-identity";
import { settleMilestone } from "@/lib/settle/settle";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import type { TestUser } from "../helpers/users";
import { parties, settlementRows, transfersTo } from "../settle/fixtures";
import { answering, reject } from "../verify/fixtures";

// One post, one payment (issue 21, point 3), on the real database (and anvil for the
// funding and the payments): a post's URL is claimed with its deliverable, in the database,
// so a second milestone (same deal, another deal, another creator) submitting it — in any
// spelling of the URL — gets 409 evidence_already_used, also when both race; and the pay
// path claims the post's canonical URL and content hash, so the same post submitted under
// URLs that differ is paid once.

// One rule-checked hashtag and no judgement-only criterion: the verdict is certain, so it
// settles on its own (a criterion would send it to the brand: lib/verify/confidence.ts).
const adOnly = { hashtags: ["#ad"], mentions: [], links: [], criteria: [] };
const approving = () => answering({ approved: true, score: 0.8, reasoning: "Good.", missing: [] });

/** An active (funded, taken) deal of `brand` with `count` milestones, taken by `creator`. */
async function activeDeal(brand: TestUser, creator: TestUser, count = 1) {
  const created = await call(dealsRoute.POST, {
    token: brand.token,
    body: {
      title: "One post, one payment",
      platform: "instagram",
      milestones: Array.from({ length: count }, (_, i) => ({
        title: `Post ${i + 1}`,
        amount: 10,
        requirements: adOnly,
      })),
    },
  });
  if (created.status !== 201) throw new Error(`create deal: ${JSON.stringify(created.body)}`);
  const deal = created.body.deal;
  await fundDeal(brand, deal.id);
  const accepted = await call(acceptRoute.POST, { params: { id: deal.id }, token: creator.token });
  if (accepted.status !== 200) throw new Error(`accept: ${JSON.stringify(accepted.body)}`);
  return {
    dealId: deal.id as string,
    milestoneIds: deal.milestones.map((m: any) => m.id) as string[],
  };
}

const deliver = (creator: TestUser, milestoneId: string, url: string) =>
  call(deliverableRoute.POST, {
    params: { id: milestoneId },
    token: creator.token,
    body: { url, text: "Launch day! #ad", note: "" },
  });

let serial = 0;
/** A post URL no other test uses. */
const freshPost = () =>
  `https://www.instagram.com/reel/Post${Date.now().toString(36)}x${serial++}/`;

async function claimsOf(milestoneId: string) {
  return listEvidenceClaims(await getDb(), milestoneId);
}

describe("the post's key", () => {
  it("is the same for the usual spellings of one post URL, and differs between posts", () => {
    const key = postUrlKey("https://www.instagram.com/reel/C0ffee123/");
    for (const variant of [
      "https://www.instagram.com/reel/C0ffee123",
      "http://WWW.Instagram.COM/reel/C0ffee123/",
      "https://instagram.com/reel/C0ffee123/#comments",
      "https://www.instagram.com/reel/C0ffee123/?utm_source=ig_web_copy_link&igsh=abc",
      "https://www.instagram.com/p/C0ffee123/",
      "HTTPS://m.instagram.com/reels/C0ffee123/?utm_medium=share",
    ])
      expect(postUrlKey(variant), variant).toBe(key);
    // Post ids are case-sensitive; other query parameters identify the page.
    expect(postUrlKey("https://www.instagram.com/reel/c0ffee123/")).not.toBe(key);
    expect(postUrlKey("https://example.com/post?id=1")).not.toBe(
      postUrlKey("https://example.com/post?id=2"),
    );
    expect(postUrlKey("https://example.com/post?b=2&a=1&utm_campaign=x")).toBe(
      postUrlKey("https://example.com/post/?a=1&b=2"),
    );
    const video = postUrlKey("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    for (const variant of [
      "https://youtu.be/dQw4w9WgXcQ?si=share123",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=shared",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    ])
      expect(postUrlKey(variant), variant).toBe(video);
    expect(postUrlKey("https://twitter.com/someone/status/1?s=20")).toBe(
      postUrlKey("https://x.com/someone/status/1"),
    );
  });
});

describe("POST /api/milestones/:id/deliverable: a post is one milestone's deliverable", () => {
  it("refuses the same post for another milestone of the same deal, naming that milestone", async () => {
    const { brand, creator } = await parties();
    const { milestoneIds } = await activeDeal(brand, creator, 2);
    const [first, second] = milestoneIds as [string, string];
    const url = freshPost();
    expect((await deliver(creator, first, url)).status).toBe(201);
    const again = await deliver(creator, second, url);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("evidence_already_used");
    expect(again.body.error.message).toMatch(/another milestone of this deal/);
    expect(again.body.error.details).toEqual({ milestoneId: first });
    // Nothing of the refused submission is stored.
    const db = await getDb();
    expect(
      await db.select().from(deliverables).where(eq(deliverables.milestoneId, second)),
    ).toHaveLength(0);
    expect(await claimsOf(second)).toHaveLength(0);
  });

  it("refuses it for another deal of the same creator and for another creator, without naming the other deal", async () => {
    const { brand, creator } = await parties();
    const a = await activeDeal(brand, creator);
    const url = freshPost();
    expect((await deliver(creator, a.milestoneIds[0] as string, url)).status).toBe(201);

    const b = await activeDeal(brand, creator);
    const sameCreator = await deliver(creator, b.milestoneIds[0] as string, url);
    expect(sameCreator.status).toBe(409);
    expect(sameCreator.body.error.code).toBe("evidence_already_used");
    expect(sameCreator.body.error.message).toMatch(/another deal/);

    const other = await parties();
    const c = await activeDeal(other.brand, other.creator);
    const otherCreator = await deliver(other.creator, c.milestoneIds[0] as string, url);
    expect(otherCreator.status).toBe(409);
    expect(otherCreator.body.error.code).toBe("evidence_already_used");
    const text = JSON.stringify(otherCreator.body);
    expect(text).not.toContain(a.dealId);
    expect(text).not.toContain(a.milestoneIds[0]);
  });

  it("refuses the post in other spellings of its URL: tracking parameters, fragment, host case", async () => {
    const { brand, creator } = await parties();
    const { milestoneIds } = await activeDeal(brand, creator, 2);
    const id = `Spell${Date.now().toString(36)}`;
    expect(
      (await deliver(creator, milestoneIds[0] as string, `https://www.instagram.com/reel/${id}/`))
        .status,
    ).toBe(201);
    for (const variant of [
      `https://www.instagram.com/reel/${id}/?utm_source=ig_web_copy_link&utm_medium=copy`,
      `https://www.instagram.com/reel/${id}/#top`,
      `https://WWW.INSTAGRAM.com/reel/${id}`,
      `http://instagram.com/reel/${id}?igsh=MTc4`,
    ]) {
      const res = await deliver(creator, milestoneIds[1] as string, variant);
      expect(res.status, variant).toBe(409);
      expect(res.body.error.code, variant).toBe("evidence_already_used");
    }
  });

  it("takes the same milestone's new revision of the same post", async () => {
    const { brand, creator } = await parties();
    const { milestoneIds } = await activeDeal(brand, creator);
    const milestoneId = milestoneIds[0] as string;
    const url = freshPost();
    expect((await deliver(creator, milestoneId, url)).status).toBe(201);
    await reject(milestoneId);
    const again = await deliver(creator, milestoneId, `${url}?utm_source=resubmit`);
    expect(again.status).toBe(201);
    expect(again.body.milestone.deliverable.revision).toBe(2);
    const claims = await claimsOf(milestoneId);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ kind: "url", key: postUrlKey(url), revision: 2 });
  });

  it("lets another milestone have a post once its milestone was rejected or its deal cancelled, and not before", async () => {
    const { brand, creator } = await parties();
    const { dealId, milestoneIds } = await activeDeal(brand, creator, 2);
    const [first, second] = milestoneIds as [string, string];
    const url = freshPost();
    expect((await deliver(creator, first, url)).status).toBe(201);
    expect((await deliver(creator, second, url)).status).toBe(409);
    await reject(first);
    expect((await deliver(creator, second, url)).status).toBe(201);
    // The first milestone's own resubmission now finds the post taken.
    const back = await deliver(creator, first, url);
    expect(back.status).toBe(409);
    expect(back.body.error.details).toEqual({ milestoneId: second });
    expect((await claimsOf(second)).map((c) => c.key)).toEqual([postUrlKey(url)]);
    expect(await claimsOf(first)).toHaveLength(0);

    // A cancelled deal's milestones hold nothing.
    const other = await parties();
    const elsewhere = await activeDeal(other.brand, other.creator);
    expect((await deliver(other.creator, elsewhere.milestoneIds[0] as string, url)).status).toBe(
      409,
    );
    const db = await getDb();
    await db.update(deals).set({ status: "cancelled" }).where(eq(deals.id, dealId));
    expect((await deliver(other.creator, elsewhere.milestoneIds[0] as string, url)).status).toBe(
      201,
    );
  });

  it("RACE: two milestones submitting the same post at once: one 201, one 409, one claim", async () => {
    const one = await parties();
    const two = await parties();
    const [a, b] = await Promise.all([
      activeDeal(one.brand, one.creator),
      activeDeal(two.brand, two.creator),
    ]);
    for (let round = 0; round < 3; round++) {
      const url = freshPost();
      const results = await Promise.all([
        deliver(one.creator, a.milestoneIds[0] as string, url),
        deliver(two.creator, b.milestoneIds[0] as string, url),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      const refused = results.find((r) => r.status === 409);
      expect(refused?.body.error.code).toBe("evidence_already_used");
      const db = await getDb();
      const claims = await db
        .select()
        .from(evidenceClaims)
        .where(and(eq(evidenceClaims.kind, "url"), eq(evidenceClaims.key, postUrlKey(url) ?? "")));
      expect(claims).toHaveLength(1);
      const winner = results[0]?.status === 201 ? a : b;
      expect(claims[0]?.milestoneId).toBe(winner.milestoneIds[0]);
      // Free both milestones for the next round.
      await reject(a.milestoneIds[0] as string);
      await reject(b.milestoneIds[0] as string);
    }
  });
});

describe("the pay path: a post is paid once", () => {
  it("does not pay a post again when its canonical URL (read from the platform) is an already-paid one", async () => {
    const { brand, creator, wallet } = await parties();
    const first = await activeDeal(brand, creator);
    const second = await activeDeal(brand, creator);
    const post = await publishOnSandbox(creator, "Launch day! The product on screen. #ad");
    // The same sandbox post under a URL that differs (its id upper-cased): the submission
    // cannot tell, the platform's canonical URL does.
    const alias = post.url.replace(post.id, post.id.toUpperCase());
    expect(alias).not.toBe(post.url);
    expect((await deliver(creator, first.milestoneIds[0] as string, post.url)).status).toBe(201);
    expect((await deliver(creator, second.milestoneIds[0] as string, alias)).status).toBe(201);

    const db = await getDb();
    const settle = (milestoneId: string) =>
      settleMilestone(
        db,
        brand.user,
        { milestoneId, via: "direct" },
        { verifier: { model: approving(), retryDelayMs: 1, timeoutMs: 2_000 } },
      );
    const paid = await settle(first.milestoneIds[0] as string);
    expect(paid.outcome).toBe("paid");
    const again = await settle(second.milestoneIds[0] as string).catch((e) => e);
    expect(again.code).toBe("evidence_already_used");
    expect(again.status).toBe(409);
    expect(await settlementRows(second.milestoneIds[0] as string)).toHaveLength(0);
    expect(await transfersTo(wallet)).toHaveLength(1);
    // The paid milestone holds the post's URL, its canonical URL and its content hash for good.
    const held = await claimsOf(first.milestoneIds[0] as string);
    expect(held.map((c) => c.kind).sort()).toEqual(["content", "url"]);
    expect(held.every((c) => c.settledAt !== null)).toBe(true);
    // Paid is for good: the deal ending does not free it for anyone.
    await db.update(deals).set({ status: "completed" }).where(eq(deals.id, first.dealId));
    const later = await activeDeal(brand, creator);
    const reuse = await deliver(creator, later.milestoneIds[0] as string, post.url);
    expect(reuse.status).toBe(409);
    expect(reuse.body.error.code).toBe("evidence_already_used");
  });

  it("RACE: two milestones paying the same post under different URLs at once: one paid, one 409", async () => {
    const { brand, creator, wallet } = await parties();
    // One after the other: both are funded from the brand's one wallet.
    const first = await activeDeal(brand, creator);
    const second = await activeDeal(brand, creator);
    const post = await publishOnSandbox(creator, "Launch day! The product on screen. #ad");
    const alias = post.url.replace(post.id, post.id.toUpperCase());
    const ids = [first.milestoneIds[0], second.milestoneIds[0]] as [string, string];
    expect((await deliver(creator, ids[0], post.url)).status).toBe(201);
    expect((await deliver(creator, ids[1], alias)).status).toBe(201);
    const db = await getDb();
    const outcomes = await Promise.allSettled(
      ids.map((milestoneId) =>
        settleMilestone(
          db,
          brand.user,
          { milestoneId, via: "direct" },
          { verifier: { model: approving(), retryDelayMs: 1, timeoutMs: 2_000 } },
        ),
      ),
    );
    const paid = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(paid).toHaveLength(1);
    expect((paid[0] as PromiseFulfilledResult<{ outcome: string }>).value.outcome).toBe("paid");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason.code).toBe("evidence_already_used");
    expect(await transfersTo(wallet)).toHaveLength(1);
    const settled = await Promise.all(ids.map(settlementRows));
    expect(settled.flat()).toHaveLength(1);
  });

  it("a brand's decision to pay (after an appeal) is refused a post another milestone was paid for", async () => {
    const { brand, creator, wallet } = await parties();
    const first = await activeDeal(brand, creator);
    const second = await activeDeal(brand, creator);
    const post = await publishOnSandbox(creator, "Launch day! The product on screen. #ad");
    const alias = `${post.url.replace(post.id, post.id.toUpperCase())}?utm_source=x`;
    const [a, b] = [first.milestoneIds[0], second.milestoneIds[0]] as [string, string];
    expect((await deliver(creator, a, post.url)).status).toBe(201);
    expect((await deliver(creator, b, alias)).status).toBe(201);
    const db = await getDb();
    const settle = (milestoneId: string, model: ReturnType<typeof answering>) =>
      settleMilestone(
        db,
        brand.user,
        { milestoneId, via: "direct" },
        { verifier: { model, retryDelayMs: 1, timeoutMs: 2_000 } },
      );
    const rejected = await settle(
      b,
      answering({ approved: false, score: 0.2, reasoning: "Off brief.", missing: ["x"] }),
    );
    expect(rejected.outcome).toBe("rejected");
    expect((await settle(a, approving())).outcome).toBe("paid");
    const appealed = await call(appealRoute.POST, {
      params: { id: b },
      token: creator.token,
      body: { reason: "The product is on screen at 0:02." },
    });
    expect(appealed.status).toBe(201);
    const decided = await call(decisionRoute.POST, {
      params: { id: b },
      token: brand.token,
      body: { approve: true, score: 0.9, reason: "Fair enough.", via: "direct" },
    });
    expect(decided.status).toBe(409);
    expect(decided.body.error.code).toBe("evidence_already_used");
    expect(await settlementRows(b)).toHaveLength(0);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });

  it("the creator settling alone after the review window is refused a post another milestone was paid for", async () => {
    const { brand, creator, wallet } = await parties();
    const first = await activeDeal(brand, creator);
    const second = await activeDeal(brand, creator);
    const post = await publishOnSandbox(creator, "Launch day! The product on screen. #ad");
    const alias = `${post.url.replace(post.id, post.id.toUpperCase())}/`;
    expect((await deliver(creator, first.milestoneIds[0] as string, post.url)).status).toBe(201);
    expect((await deliver(creator, second.milestoneIds[0] as string, alias)).status).toBe(201);
    const db = await getDb();
    const paid = await settleMilestone(
      db,
      brand.user,
      { milestoneId: first.milestoneIds[0] as string, via: "direct" },
      { verifier: { model: approving(), retryDelayMs: 1, timeoutMs: 2_000 } },
    );
    expect(paid.outcome).toBe("paid");

    // The brand lets the second milestone's review window pass; the creator settles it alone.
    await db
      .update(deliverables)
      .set({ submittedAt: sql`${deliverables.submittedAt} - interval '8 days'` })
      .where(eq(deliverables.milestoneId, second.milestoneIds[0] as string));
    const alone = await settleMilestone(
      db,
      creator.user,
      { milestoneId: second.milestoneIds[0] as string, via: "direct" },
      { verifier: { model: approving(), retryDelayMs: 1, timeoutMs: 2_000 } },
    ).catch((e) => e);
    expect(alone.code).toBe("evidence_already_used");
    expect(alone.status).toBe(409);
    expect(await settlementRows(second.milestoneIds[0] as string)).toHaveLength(0);
    expect(await transfersTo(wallet)).toHaveLength(1);
  });
});
