import { describe, expect, it } from "vitest";
import { RUBRIC_MODEL_ID, rubricVerdict } from "@/lib/verify/rubric";
import { runVerifier } from "@/lib/verify/verifier";
import { goodDeliverable, launchRequirements } from "./fixtures";

const base = {
  requirements: launchRequirements,
  dealTitle: "Instagram Reel — Product Launch",
  milestoneTitle: "Launch Reel",
  platform: "instagram",
};

describe("offline rubric verifier", () => {
  it("approves a deliverable with every required item, a real post URL and a caption", () => {
    const v = rubricVerdict({ ...base, deliverable: goodDeliverable });
    expect(v.approved).toBe(true);
    expect(v.score).toBeGreaterThanOrEqual(0.8);
    expect(v.missing).toEqual([]);
    expect(v.reasoning).toMatch(/offline rubric/i);
    expect(v.reasoning).toContain("2/2 hashtags");
    expect(v.reasoning).toContain("1/1 mentions");
    expect(v.reasoning).toContain("1/1 links");
    expect(v.reasoning).toContain("instagram");
    expect(v.reasoning).toMatch(/Not assessed: 1 criterion/);
  });

  it("does not approve a deliverable missing a required hashtag, and says which", () => {
    const v = rubricVerdict({
      ...base,
      deliverable: { ...goodDeliverable, text: goodDeliverable.text.replace(" #ad", "") },
    });
    expect(v.approved).toBe(false);
    expect(v.missing).toEqual(["hashtag #ad"]);
    expect(v.score).toBeLessThan(1);
    expect(v.reasoning).toContain("1/2 hashtags");
    expect(v.reasoning).toContain("missing: hashtag #ad");
  });

  it("scores a URL off the deal's platform and an empty caption lower", () => {
    const good = rubricVerdict({ ...base, deliverable: goodDeliverable });
    const offPlatform = rubricVerdict({
      ...base,
      deliverable: { ...goodDeliverable, url: "https://example.com/" },
    });
    expect(offPlatform.score).toBeLessThan(good.score);
    expect(offPlatform.reasoning).toContain("not on the deal's platform");
    const noCaption = rubricVerdict({
      ...base,
      requirements: { hashtags: [], mentions: [], links: [], criteria: [] },
      deliverable: { url: goodDeliverable.url, text: "", note: "" },
    });
    expect(noCaption.reasoning).toContain("the caption is empty");
    expect(noCaption.score).toBe(0.8);
  });

  it("is deterministic: the same input gives the same verdict", () => {
    const input = { ...base, deliverable: goodDeliverable };
    expect(rubricVerdict(input)).toEqual(rubricVerdict(structuredClone(input)));
  });

  it("is what runVerifier uses when no model is configured", async () => {
    const res = await runVerifier({ ...base, deliverable: goodDeliverable }, { model: null });
    expect(res.model).toBe(RUBRIC_MODEL_ID);
    expect(res.verdict).toEqual(rubricVerdict({ ...base, deliverable: goodDeliverable }));
    expect(res.inputTokens).toBeNull();
    expect(res.outputTokens).toBeNull();
  });
});
