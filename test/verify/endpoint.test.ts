import type { LanguageModel } from "ai";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as dealsRoute from "@/app/api/deals/route";
import * as verifyRoute from "@/app/api/verify/route";
import { getDb } from "@/db/client";
import { milestones } from "@/db/schema";
import { DISCLOSURE_MISSING } from "@/lib/verify/checks";
import { RUBRIC_MODEL_ID } from "@/lib/verify/rubric";
import { call } from "../helpers/http";
import { makeUser, type TestUser } from "../helpers/users";
import {
  activeMilestone,
  answering,
  approve,
  reject,
  storedVerifications,
  submit,
  submittedMilestone,
  textResult,
} from "./fixtures";

// The route asks lib/verify/providers for the configured model; here that is a mock
// (or null, for the offline rubric), so model calls can be counted end to end.
const configured = vi.hoisted(() => ({
  current: null as { model: LanguageModel; id: string } | null,
}));
vi.mock("@/lib/verify/providers", () => ({ verifierModel: () => configured.current }));

let brand: TestUser;
let creator: TestUser;
let model: ReturnType<typeof answering>;

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

beforeEach(() => {
  model = answering(approve);
  configured.current = { model, id: "test/judge-1" };
});

const verify = (token: string | undefined, milestoneId: unknown) =>
  call(verifyRoute.POST, { path: "/api/verify", token, body: { milestoneId } });

describe("POST /api/verify", () => {
  it("gives the brand and the creator the same stored verdict, from one model call", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    const byBrand = await verify(brand.token, milestoneId);
    expect(byBrand.status).toBe(200);
    expect(byBrand.body).toEqual({
      approved: true,
      score: 0.92,
      reasoning: "Looks great.",
      missing: [],
      model: "test/judge-1",
      verifier: "AI review (test/judge-1)",
      deductions: [
        { points: 0.08, reason: "the model judged the post short of fully meeting the brief" },
      ],
      // No judgement-only criterion in this brief: what the model judged, the rules checked.
      confidence: 1,
      revision: 1,
      verifiedAt: expect.any(String),
    });
    expect(new Date(byBrand.body.verifiedAt).toISOString()).toBe(byBrand.body.verifiedAt);
    const byCreator = await verify(creator.token, milestoneId);
    expect(byCreator.status).toBe(200);
    expect(byCreator.body).toEqual(byBrand.body);
    expect(model.doGenerateCalls).toHaveLength(1);

    const [row] = await storedVerifications(milestoneId);
    expect(row).toMatchObject({
      scoreBps: 9200,
      model: "test/judge-1",
      inputTokens: 120,
      outputTokens: 40,
    });
    expect(row?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("does not change the milestone's status", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    expect((await verify(brand.token, milestoneId)).status).toBe(200);
    const db = await getDb();
    const [m] = await db.select().from(milestones).where(eq(milestones.id, milestoneId));
    expect(m?.status).toBe("submitted");
  });

  it("repeats return the stored verdict without asking the model again, even a different one", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    const first = await verify(creator.token, milestoneId);
    configured.current = { model: answering({ ...approve, score: 0.1 }), id: "test/other" };
    const again = await verify(creator.token, milestoneId);
    expect(again.body).toEqual(first.body);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("verifies a new revision anew, keeping the old verdict", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    expect((await verify(brand.token, milestoneId)).body.revision).toBe(1);
    await reject(milestoneId);
    expect(await submit(creator, milestoneId)).toBe(2);
    const second = await verify(brand.token, milestoneId);
    expect(second.status).toBe(200);
    expect(second.body.revision).toBe(2);
    expect(model.doGenerateCalls).toHaveLength(2);
    const rows = await storedVerifications(milestoneId);
    expect(rows.map((r) => r.revision).sort()).toEqual([1, 2]);
  });

  it("makes exactly one model call and one row for 5 concurrent verifies of one revision", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    // The model answers only when the test says so: all five requests are sent first, and
    // none can have an answer while the model call is held (there is no verdict yet), so
    // they all overlap it, however fast or slow the machine is.
    let modelCalled!: () => void;
    const called = new Promise<void>((r) => {
      modelCalled = r;
    });
    let answer!: () => void;
    const answered = new Promise<void>((r) => {
      answer = r;
    });
    model = answering(async () => {
      modelCalled();
      await answered;
      return textResult(JSON.stringify(approve));
    });
    configured.current = { model, id: "test/judge-1" };
    let finished = 0;
    const requests = Array.from({ length: 5 }, (_, i) =>
      verify(i % 2 ? brand.token : creator.token, milestoneId).finally(() => {
        finished++;
      }),
    );
    await called;
    // A query sent after all five: on PGlite it runs after theirs (one connection, in order).
    expect(await storedVerifications(milestoneId)).toHaveLength(0);
    expect(finished).toBe(0);
    answer();
    const results = await Promise.all(requests);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const r of results) expect(r.body).toEqual(results[0]?.body);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(await storedVerifications(milestoneId)).toHaveLength(1);
  });

  it("uses the offline rubric when no model is configured", async () => {
    configured.current = null;
    const { milestoneId } = await submittedMilestone(brand, creator);
    const res = await verify(brand.token, milestoneId);
    expect(res.status).toBe(200);
    expect(res.body.model).toBe(RUBRIC_MODEL_ID);
    expect(res.body.approved).toBe(true);
    expect(res.body.reasoning).toMatch(/^Rule check/);
    expect(res.body.verifier).toBe("Rule check");
    expect(res.body.deductions).toEqual([
      { points: 0.1, reason: "posted on the sandbox, not on Instagram" },
    ]);
  });

  it("stores a guarded verdict: missing hashtags are never approved", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator, {
      url: "https://www.instagram.com/reel/xyz/",
      text: "No tags at all",
    });
    const res = await verify(brand.token, milestoneId);
    expect(res.body.approved).toBe(false);
    expect(res.body.missing).toEqual([
      "hashtag #MilestoneLaunch",
      "hashtag #ad",
      "mention @milestone.app",
      "link https://milestone.example/launch",
      DISCLOSURE_MISSING,
    ]);
  });

  it("answers 502 verifier_unavailable and stores nothing when the model fails", async () => {
    configured.current = { model: answering("not json"), id: "test/broken" };
    const { milestoneId } = await submittedMilestone(brand, creator);
    const res = await verify(brand.token, milestoneId);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("verifier_unavailable");
    expect(await storedVerifications(milestoneId)).toHaveLength(0);
  });
});

describe("POST /api/verify refusals", () => {
  it("404 for an unknown milestone", async () => {
    const res = await verify(brand.token, "00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("404 for a user who is no party to the deal, whatever their role", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    for (const outsider of [await makeUser("creator"), await makeUser("organization")]) {
      const res = await verify(outsider.token, milestoneId);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: {
          code: "not_found",
          message: "Milestone not found.",
          requestId: expect.any(String),
        },
      });
    }
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("404 for a creator browsing an open deal (visible, but not a party)", async () => {
    const open = await call(dealsRoute.POST, {
      token: brand.token,
      body: { title: "Open offer", milestones: [{ title: "Post", amount: 5 }] },
    });
    const milestoneId = open.body.deal.milestones[0].id;
    const res = await verify((await makeUser("creator")).token, milestoneId);
    expect(res.status).toBe(404);
    // The brand of the open deal is a party, but nothing is submitted.
    const own = await verify(brand.token, milestoneId);
    expect(own.status).toBe(409);
    expect(own.body.error.code).toBe("no_deliverable");
  });

  it("401 without credentials", async () => {
    const { milestoneId } = await submittedMilestone(brand, creator);
    const res = await verify(undefined, milestoneId);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
  });

  it("409 no_deliverable before anything is submitted", async () => {
    const { milestoneId } = await activeMilestone(brand, creator);
    for (const who of [brand, creator]) {
      const res = await verify(who.token, milestoneId);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("no_deliverable");
    }
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it.each([["not-a-uuid"], [123], [null]])("400 for milestoneId %j", async (bad) => {
    const res = await verify(brand.token, bad);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details[0].path).toEqual(["milestoneId"]);
  });

  it("400 for a missing milestoneId and for malformed JSON", async () => {
    const missing = await call(verifyRoute.POST, { token: brand.token, body: {} });
    expect(missing.status).toBe(400);
    const malformed = await call(verifyRoute.POST, { token: brand.token, rawBody: "{" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("invalid_json");
  });
});
