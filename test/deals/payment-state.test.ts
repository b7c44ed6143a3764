import { describe, expect, it } from "vitest";
import {
  type DealJson,
  type MilestoneJson,
  milestoneStatusText,
  paymentState,
  type SettlementJson,
  stuckPayments,
  verdictCoverage,
} from "@/components/deals/format";

// What the deal page and the dashboards say about a payment and a verdict, derived from the
// API's JSON alone.

const settlement = (patch: Partial<SettlementJson>): SettlementJson => ({
  id: "s1",
  milestoneId: "m1",
  via: "direct",
  chainId: 31337,
  amount: "46.000000",
  refund: "4.000000",
  verdictHash: null,
  scoreUsed: 0.92,
  recipient: "0x0000000000000000000000000000000000000001",
  txHash: null,
  logIndex: null,
  status: "pending",
  explorerUrl: null,
  reputationTxHash: null,
  inFlight: false,
  error: null,
  createdAt: "2026-11-22T15:00:00.000Z",
  updatedAt: "2026-11-22T15:00:00.000Z",
  ...patch,
});

const requirements = {
  hashtags: ["ad", "#summer"],
  mentions: ["acme"],
  links: ["https://acme.test/shop"],
  criteria: ["Shows the product in use", "Positive tone"],
};

const milestone = (patch: Partial<MilestoneJson>): MilestoneJson => ({
  id: "m1",
  dealId: "d1",
  title: "Launch post",
  amount: 50,
  requirements,
  dueAt: null,
  metadata: {},
  status: "approved",
  deliverable: null,
  verdict: null,
  settlement: null,
  changeRequest: null,
  refundTxHash: null,
  ...patch,
});

describe("paymentState", () => {
  it("reads a submitted or pending payment nobody is advancing as delayed", () => {
    expect(paymentState(settlement({ status: "submitted", txHash: "0xabc" }))).toBe("delayed");
    expect(paymentState(settlement({ status: "pending" }))).toBe("delayed");
  });

  it("reads a payment being advanced right now as paying, whatever its status", () => {
    expect(paymentState(settlement({ status: "submitted", inFlight: true }))).toBe("paying");
    expect(paymentState(settlement({ status: "pending", inFlight: true }))).toBe("paying");
    expect(paymentState(settlement({ status: "failed", inFlight: true }))).toBe("paying");
  });

  it("tells a failed payment from a confirmed one and from no payment at all", () => {
    expect(paymentState(settlement({ status: "failed", error: "transaction failed" }))).toBe(
      "failed",
    );
    expect(paymentState(settlement({ status: "confirmed" }))).toBe("paid");
    expect(paymentState(null)).toBe("none");
    expect(paymentState(undefined)).toBe("none");
  });

  it("puts a stuck payment in the milestone's badge and flags the deal", () => {
    const delayed = milestone({ settlement: settlement({ status: "submitted" }) });
    const paying = milestone({ id: "m2", settlement: settlement({ inFlight: true }) });
    const paid = milestone({
      id: "m3",
      status: "paid",
      settlement: settlement({ status: "confirmed" }),
    });
    const failed = milestone({ id: "m4", settlement: settlement({ status: "failed" }) });
    expect(milestoneStatusText(delayed)).toBe("Approved · payment delayed");
    expect(milestoneStatusText(failed)).toBe("Approved · payment failed");
    expect(milestoneStatusText(paying)).toBe("Approved · paying");
    expect(milestoneStatusText(paid)).toBe("Paid");
    const deal = { milestones: [delayed, paying, paid, failed] } as DealJson;
    expect(stuckPayments(deal).map((m) => m.id)).toEqual(["m1", "m4"]);
    expect(stuckPayments({ milestones: [paying, paid] } as DealJson)).toEqual([]);
  });
});

describe("verdictCoverage", () => {
  it("says the offline rubric checked the tags, mentions and links but not the criteria", () => {
    const c = verdictCoverage(requirements, { model: "rubric-v2", missing: [] });
    expect(c.offline).toBe(true);
    expect(c.checked).toEqual([
      { item: "#ad", state: "found" },
      { item: "#summer", state: "found" },
      { item: "@acme", state: "found" },
      { item: "https://acme.test/shop", state: "found" },
    ]);
    expect(c.judged).toEqual([]);
    expect(c.unchecked).toEqual(["Shows the product in use", "Positive tone"]);
  });

  it("marks what the verdict lists as missing, in the checks' own words", () => {
    const c = verdictCoverage(requirements, {
      model: "rubric-v2",
      missing: ["hashtag #summer", "link https://acme.test/shop"],
    });
    expect(c.checked.filter((x) => x.state === "missing").map((x) => x.item)).toEqual([
      "#summer",
      "https://acme.test/shop",
    ]);
  });

  it("says the AI model judged the criteria, and which it found unmet", () => {
    const c = verdictCoverage(requirements, {
      model: "openai:gpt-5-mini",
      missing: ["Positive tone"],
    });
    expect(c.offline).toBe(false);
    expect(c.unchecked).toEqual([]);
    expect(c.judged).toEqual([
      { item: "Shows the product in use", met: true },
      { item: "Positive tone", met: false },
    ]);
  });

  it("checks nothing on a post that could not be read", () => {
    const c = verdictCoverage(requirements, {
      model: "evidence-gate-v1",
      missing: ["post not verifiable (unreachable): timeout"],
    });
    expect(c.postUnread).toBe(true);
    expect(c.checked.every((x) => x.state === "unchecked")).toBe(true);
    expect(c.unchecked).toHaveLength(2);
  });
});
