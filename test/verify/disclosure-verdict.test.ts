import { beforeAll, describe, expect, it } from "vitest";
import * as evidenceRoute from "@/app/api/milestones/[id]/evidence/route";
import * as precheckRoute from "@/app/api/milestones/[id]/precheck/route";
import * as verifyRoute from "@/app/api/verify/route";
import type { Requirements } from "@/db/schema";
import { DISCLOSURE_MISSING, DISCLOSURE_RULE } from "@/lib/verify/checks";
import { call } from "../helpers/http";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import { makeUser, type TestUser } from "../helpers/users";
import { activeMilestone, submit } from "./fixtures";

// The disclosure rule through the real routes: the creator publishes on the sandbox, the
// verifier reads the post through the safe fetcher and lists a missing or buried disclosure
// under `missing` (a certain verdict: rules decided it); the sandbox's paid-partnership label
// counts as the disclosure; a deal whose brand turned the rule off (with a reason) does not
// ask for it; the creator's pre-check says the same before anything is submitted.

let brand: TestUser;
let creator: TestUser;

/** A brief with no #ad of its own: only the disclosure rule asks for one. */
const brief: Requirements = {
  hashtags: ["#launch"],
  mentions: [],
  links: [],
  criteria: [],
};
const body = "Launch day! This is how I get paid per milestone now, and it is simple.";

const verify = (milestoneId: string) =>
  call(verifyRoute.POST, { path: "/api/verify", token: brand.token, body: { milestoneId } });

const precheck = (milestoneId: string, url: string) =>
  call(precheckRoute.POST, { params: { id: milestoneId }, token: creator.token, body: { url } });

async function verdictOn(
  caption: string,
  opts: { label?: boolean; deal?: Record<string, unknown> } = {},
) {
  const { milestoneId } = await activeMilestone(brand, creator, brief, opts.deal);
  const post = await publishOnSandbox(creator, caption, { paidPartnership: opts.label });
  await submit(creator, milestoneId, { url: post.url, text: "", publish: false });
  const res = await verify(milestoneId);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { milestoneId, verdict: res.body };
}

beforeAll(async () => {
  brand = await makeUser("organization");
  creator = await makeUser("creator");
});

describe("the disclosure rule in verdicts", () => {
  it("lists a missing disclosure under missing, with certain confidence", async () => {
    const { verdict } = await verdictOn(`${body} #launch`);
    expect(verdict.approved).toBe(false);
    expect(verdict.missing).toEqual([DISCLOSURE_MISSING]);
    expect(verdict.confidence).toBe(1);
    expect(verdict.reasoning).toContain("disclosure missing");
  });

  it("lists a disclosure buried past the first 125 characters, saying where it is", async () => {
    const long = `${body} ${body} #launch`; // 150 characters before the tag
    const { verdict } = await verdictOn(`${long} #ad`);
    expect(verdict.approved).toBe(false);
    expect(verdict.missing).toHaveLength(1);
    expect(verdict.missing[0]).toMatch(
      /^Disclosure: #ad is at character 1\d\d, after the first 125 that show before "more"/,
    );
  });

  it("approves #ad within the first 125 characters", async () => {
    const { verdict } = await verdictOn(`#ad ${body} #launch`);
    expect(verdict).toMatchObject({ approved: true, missing: [], confidence: 1 });
  });

  it("accepts the platform's paid-partnership label without a tag, and shows it in the evidence", async () => {
    const { milestoneId, verdict } = await verdictOn(`${body} #launch`, { label: true });
    expect(verdict).toMatchObject({ approved: true, missing: [] });
    const read = await call(evidenceRoute.GET, { params: { id: milestoneId }, token: brand.token });
    expect(read.status).toBe(200);
    expect(read.body.evidence[0]).toMatchObject({ status: "ok", paidPartnership: true });
  });

  it("does not ask for it on a deal whose brand turned the rule off", async () => {
    const { verdict } = await verdictOn(`${body} #launch`, {
      deal: {
        disclosure: {
          required: false,
          reason: "Posted on the brand's own account, an ad plainly.",
        },
      },
    });
    expect(verdict).toMatchObject({ approved: true, missing: [] });
  });

  it("is in the creator's pre-check: missing first, ready once the label is on", async () => {
    const { milestoneId } = await activeMilestone(brand, creator, brief);
    const bare = await publishOnSandbox(creator, `${body} #launch`);
    const first = await precheck(milestoneId, bare.url);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ ready: false, missing: [DISCLOSURE_MISSING] });
    expect(first.body.requirements).toEqual([
      { kind: "hashtag", value: "#launch", found: true },
      { kind: "disclosure", value: DISCLOSURE_RULE, found: false },
    ]);
    const labelled = await publishOnSandbox(creator, `${body} #launch`, { paidPartnership: true });
    const again = await precheck(milestoneId, labelled.url);
    expect(again.body).toMatchObject({ ready: true, missing: [] });
    expect(again.body.requirements.at(-1)).toEqual({
      kind: "disclosure",
      value: DISCLOSURE_RULE,
      found: true,
    });
  });
});
