import { describe, expect, it } from "vitest";
import { dealEventTypes } from "@/db/schema";
import { describeEvent, type EventContext, emailFor } from "@/lib/notify/describe";

// The words for every event type come from one module; display names, never e-mails.

const base: EventContext = {
  type: "approved",
  data: {},
  dealTitle: "Spring launch",
  milestoneTitle: "Launch post",
  actor: "brand",
  brandName: "Acme",
  creatorName: "Rosa",
};

describe("describeEvent", () => {
  it("names the check that ran: the rubric is a rule check, a model an AI check", () => {
    const verified = { ...base, type: "verified" as const, actor: "service" as const };
    expect(
      describeEvent({ ...verified, data: { approved: true, score: 0.9, source: "rubric" } }).title,
    ).toBe("The rule check approved milestone 'Launch post' at 90 %");
    expect(
      describeEvent({ ...verified, data: { approved: false, score: 0.3, source: "model" } }).title,
    ).toBe("The AI check did not approve milestone 'Launch post' (score 30 %)");
  });

  it("says who did what to which milestone, with the numbers", () => {
    expect(describeEvent({ ...base, data: { score: 0.8, payout: "8", refund: "2" } })).toEqual({
      title: "Acme approved milestone 'Launch post' at 80 %",
      detail: "8 USDC to the creator, 2 USDC back to the brand.",
    });
    expect(
      describeEvent({
        ...base,
        type: "appealed",
        actor: "creator",
        data: { reason: "It has the tag" },
      }),
    ).toEqual({
      title: "Rosa appealed the rejection of milestone 'Launch post'",
      detail: "It has the tag",
    });
    expect(
      describeEvent({
        ...base,
        type: "rejected",
        actor: "service",
        data: { score: 0.4, missing: ["#ad"] },
      }),
    ).toEqual({
      title: "Milestone 'Launch post' was rejected (score 40 %)",
      detail: "Missing: #ad",
    });
    expect(
      describeEvent({ ...base, type: "decided", data: { outcome: "upheld", reason: "Off brief" } })
        .title,
    ).toBe("Acme upheld the rejection of milestone 'Launch post'");
    expect(describeEvent({ ...base, type: "decided", data: { score: 0.75 } }).title).toBe(
      "Acme approved milestone 'Launch post' at 75 %",
    );
    expect(
      describeEvent({ ...base, type: "taken", actor: "creator", creatorName: null }).title,
    ).toBe("The creator took the deal 'Spring launch'");
  });

  it("has words for every event type, and an e-mail with a link", () => {
    for (const type of dealEventTypes) {
      const text = describeEvent({ ...base, type });
      expect(text.title.length, type).toBeGreaterThan(10);
      expect(text.title, type).not.toMatch(/undefined|null|\[object/);
    }
    const mail = emailFor(
      { ...base, type: "paid", data: { amount: "8" } },
      "https://app.example/deals/1",
    );
    expect(mail.subject).toBe("Milestone 'Launch post' was paid: 8 USDC to the creator");
    expect(mail.text).toContain("https://app.example/deals/1");
  });
});
