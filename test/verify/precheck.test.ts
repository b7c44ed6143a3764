import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as precheckRoute from "@/app/api/milestones/[id]/precheck/route";
import { getDb } from "@/db/client";
import { evidence, milestones, rateLimits, settlements } from "@/db/schema";
import { DISCLOSURE_MISSING, DISCLOSURE_RULE } from "@/lib/verify/checks";
import { PRECHECK_WINDOW } from "@/lib/verify/precheck";
import { call } from "../helpers/http";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import { makeUser, type TestUser } from "../helpers/users";
import {
  activeMilestone,
  goodDeliverable,
  launchRequirements,
  storedVerifications,
} from "./fixtures";

// The creator's pre-check: the post at a URL through the verifier's rule checks before
// submitting. It names what is missing, stores nothing (no verdict, no evidence, no
// deliverable), moves no money, and is rate-limited per creator.

let brand: TestUser;
let creator: TestUser;

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

const precheck = (token: string, milestoneId: string, url: unknown) =>
  call(precheckRoute.POST, { params: { id: milestoneId }, token, body: { url } });

const noAd = goodDeliverable.text.replace(" #ad", "");

describe("POST /api/milestones/:id/precheck", () => {
  it("names the missing hashtag, then says ready once the post has it; stores nothing", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, launchRequirements);
    const first = await publishOnSandbox(creator, noAd);
    const res = await precheck(creator.token, milestoneId, first.url);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ready: false,
      missing: ["hashtag #ad", DISCLOSURE_MISSING],
      post: { status: "ok", platform: "sandbox" },
      criteria: ["Shows the app on screen within the first 3 seconds"],
      minScore: 0.5,
    });
    expect(res.body.requirements).toContainEqual({ kind: "hashtag", value: "#ad", found: false });
    // The deal's disclosure rule (on for new deals) is the fifth item, checked on the same post.
    expect(res.body.requirements.at(-1)).toEqual({
      kind: "disclosure",
      value: DISCLOSURE_RULE,
      found: false,
    });
    expect(res.body.deductions).toContainEqual({
      points: 0.12,
      reason: "hashtag #ad is not in the post's caption",
    });
    expect(res.body.deductions).toContainEqual({
      points: 0.12,
      reason: `the post does not disclose the paid partnership (${DISCLOSURE_RULE})`,
    });

    const fixed = await publishOnSandbox(creator, goodDeliverable.text);
    const again = await precheck(creator.token, milestoneId, fixed.url);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ ready: true, missing: [], score: 0.9 });
    expect(again.body.deductions).toEqual([
      { points: 0.1, reason: "posted on the sandbox, not on Instagram" },
    ]);

    // Nothing was recorded: no verdict, no evidence, no deliverable, no settlement.
    const db = await getDb();
    expect(await storedVerifications(milestoneId)).toEqual([]);
    expect(await db.select().from(evidence).where(eq(evidence.milestoneId, milestoneId))).toEqual(
      [],
    );
    expect(
      await db.select().from(settlements).where(eq(settlements.milestoneId, milestoneId)),
    ).toEqual([]);
    const [m] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    expect(m).toMatchObject({ status: "pending", revision: 0 });
  });

  it("is the creator's: the brand gets 403, a stranger 404, a bad URL 400", async () => {
    const { milestoneId } = await activeMilestone(brand, creator);
    const url = "https://www.instagram.com/reel/C0ffee123/";
    const byBrand = await precheck(brand.token, milestoneId, url);
    expect(byBrand.status).toBe(403);
    const stranger = await makeUser("creator");
    expect((await precheck(stranger.token, milestoneId, url)).status).toBe(404);
    const bad = await precheck(creator.token, milestoneId, "not a url");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });

  it(`is rate-limited: ${PRECHECK_WINDOW.limit} a minute per creator, then 429`, async () => {
    const limited = await makeUser("creator");
    const { milestoneId } = await activeMilestone(brand, limited);
    const url = "https://unsupported.invalid/post/1";
    expect((await precheck(limited.token, milestoneId, url)).status).toBe(200);
    // The creator has used up this minute's allowance (and the next one's, should the
    // minute turn meanwhile): the next pre-check is refused before any post is fetched.
    const db = await getDb();
    const bucket = `precheck:${limited.user.id}`;
    const start = (at: number) =>
      new Date(Math.floor(at / PRECHECK_WINDOW.windowMs) * PRECHECK_WINDOW.windowMs);
    await db.delete(rateLimits).where(eq(rateLimits.bucket, bucket));
    await db.insert(rateLimits).values(
      [start(Date.now()), start(Date.now() + PRECHECK_WINDOW.windowMs)].map((windowStart) => ({
        bucket,
        windowStart,
        count: PRECHECK_WINDOW.limit,
      })),
    );
    const refused = await precheck(limited.token, milestoneId, url);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
