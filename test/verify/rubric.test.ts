import { describe, expect, it } from "vitest";
import { DISCLOSURE_MISSING } from "@/lib/verify/checks";
import type { Evidence } from "@/lib/verify/evidence";
import { RUBRIC_MODEL_ID, rubricVerdict } from "@/lib/verify/rubric";
import { NO_EVIDENCE_MODEL_ID, runVerifier } from "@/lib/verify/verifier";
import { goodDeliverable, inputFor, sandboxEvidence } from "./fixtures";

const noHashtagAd = goodDeliverable.text.replace(" #ad", "");

function webEvidence(
  url: string,
  caption: string,
  platform: "web" | "instagram" = "web",
  author: string | null = "creator",
): Evidence {
  const e = sandboxEvidence(caption, author ?? undefined);
  if (e.status !== "ok") throw new Error("unreachable");
  return {
    ...e,
    record: { ...e.record, platform, url, canonicalUrl: url, authorHandle: author },
  };
}

describe("offline rubric verifier", () => {
  it("approves a post with every required item, on the platform, by the creator", () => {
    const v = rubricVerdict(inputFor());
    expect(v.approved).toBe(true);
    expect(v.score).toBeGreaterThanOrEqual(0.8);
    expect(v.missing).toEqual([]);
    expect(v.reasoning).toMatch(/^Rule check/);
    expect(v.reasoning).toContain("2/2 hashtags");
    expect(v.reasoning).toContain("1/1 mentions");
    expect(v.reasoning).toContain("1/1 links");
    expect(v.reasoning).toContain(
      "on the sandbox platform, not on the deal's platform (instagram)",
    );
    expect(v.score).toBe(0.9);
    // The 10 % it lost, said in one line; the criterion nobody judged leaves it uncertain.
    expect(v.deductions).toEqual([
      { bps: 1000, reason: "posted on the sandbox, not on Instagram" },
    ]);
    expect(v.confidence).toBe(0.5);
    expect(v.reasoning).toContain("post by @creator");
    expect(v.reasoning).toMatch(/Not assessed: 1 criterion/);
  });

  it("does not approve a post missing a required hashtag, and says which", () => {
    const v = rubricVerdict(inputFor({ ...goodDeliverable, text: noHashtagAd }));
    expect(v.approved).toBe(false);
    // Without #ad the post is not disclosed either (new deals have the rule on).
    expect(v.missing).toEqual(["hashtag #ad", DISCLOSURE_MISSING]);
    expect(v.score).toBeLessThan(1);
    expect(v.reasoning).toContain("1/2 hashtags");
    expect(v.reasoning).toContain("disclosure missing");
    expect(v.reasoning).toContain("missing: hashtag #ad");
    expect(v.deductions.map((d) => d.reason)).toContain(
      "the post does not disclose the paid partnership (#ad, #sponsored or #paidpartnership within the first 125 characters, or the platform's paid-partnership label)",
    );
  });

  it("judges the post, not the claim: the creator's text cannot add a missing hashtag", () => {
    const v = rubricVerdict(inputFor(goodDeliverable, { evidence: sandboxEvidence(noHashtagAd) }));
    expect(v.approved).toBe(false);
    expect(v.missing).toEqual(["hashtag #ad", DISCLOSURE_MISSING]);
    // And the same post with a bare claim gets the same verdict.
    const bare = rubricVerdict(
      inputFor(
        { url: goodDeliverable.url, text: "", note: "" },
        { evidence: sandboxEvidence(noHashtagAd) },
      ),
    );
    expect(bare).toEqual(v);
  });

  it("does not approve a post by someone else", () => {
    const v = rubricVerdict(inputFor(goodDeliverable, { declaredHandle: "another" }));
    expect(v.approved).toBe(false);
    expect(v.missing).toEqual([
      "post author @creator is not the creator's declared Sandbox handle @another",
    ]);
    expect(v.reasoning).toMatch(/brand decides/);
  });

  it("scores a page off the deal's platform and an empty caption lower", () => {
    const good = rubricVerdict(
      inputFor(goodDeliverable, {
        evidence: webEvidence(goodDeliverable.url, goodDeliverable.text, "instagram"),
      }),
    );
    expect(good.score).toBe(1);
    const offPlatform = rubricVerdict(
      inputFor(goodDeliverable, {
        evidence: webEvidence("https://example.com/post", goodDeliverable.text),
      }),
    );
    expect(offPlatform.score).toBeLessThan(good.score);
    expect(offPlatform.reasoning).toContain("not on the deal's platform");
    const noCaption = rubricVerdict(
      inputFor(
        { url: goodDeliverable.url, text: "", note: "" },
        {
          requirements: { hashtags: [], mentions: [], links: [], criteria: [] },
          disclosureRequired: false,
        },
      ),
    );
    expect(noCaption.reasoning).toContain("the caption is empty");
    // 0.60 (no requirements) + 0.10 (a post page, but on the sandbox, not instagram) + 0 caption.
    expect(noCaption.score).toBe(0.7);
  });

  it("is deterministic: the same input gives the same verdict", () => {
    expect(rubricVerdict(inputFor())).toEqual(rubricVerdict(structuredClone(inputFor())));
  });

  it("is what runVerifier uses when no model is configured", async () => {
    const res = await runVerifier(inputFor(), { model: null });
    expect(res.model).toBe(RUBRIC_MODEL_ID);
    expect(res.verdict).toEqual(rubricVerdict(inputFor()));
    expect(res.inputTokens).toBeNull();
    expect(res.outputTokens).toBeNull();
  });

  it("gives an unreadable post no score and no approval, without asking any model", async () => {
    const res = await runVerifier(
      inputFor(goodDeliverable, {
        evidence: {
          status: "unreachable",
          platform: "instagram",
          url: goodDeliverable.url,
          error: "The post could not be fetched: The request timed out.",
          fetchedAt: "2026-11-22T12:00:00.000Z",
          contentHash: `0x${"00".repeat(32)}`,
        },
      }),
      { model: null },
    );
    expect(res.model).toBe(NO_EVIDENCE_MODEL_ID);
    expect(res.verdict.approved).toBe(false);
    expect(res.verdict.score).toBe(0);
    expect(res.verdict.missing).toEqual([
      "post not verifiable (unreachable): The post could not be fetched: The request timed out.",
    ]);
  });
});
