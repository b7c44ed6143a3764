import { MockLanguageModelV4 } from "ai/test";
import { eq } from "drizzle-orm";
import * as acceptRoute from "@/app/api/deals/[id]/accept/route";
import * as dealsRoute from "@/app/api/deals/route";
import * as deliverableRoute from "@/app/api/milestones/[id]/deliverable/route";
import { getDb } from "@/db/client";
import { milestones, type Requirements, verifications } from "@/db/schema";
import type { Evidence } from "@/lib/verify/evidence";
import { LOGPROBS_PROVIDER } from "@/lib/verify/logprobs";
import type { VerifierInput } from "@/lib/verify/verdict";
import { fundDeal } from "../helpers/fund-deal";
import { call } from "../helpers/http";
import { publishOnSandbox } from "../helpers/sandbox-platform";
import type { TestUser } from "../helpers/users";
import { recordedVerdict } from "./logprob-fixtures";

// Deals with deliverables made through the real routes, and mock models for the AI path.
// A deliverable is evidence-backed: `submit` publishes its text on the sandbox platform first
// (as the creator, whose sandbox handle that makes theirs) and submits that post's URL; the
// verifier then reads the post through the safe fetcher. `{ publish: false }` submits the
// URL as given (a post the verifier has to fetch from elsewhere).

type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;

export const launchRequirements: Requirements = {
  hashtags: ["#MilestoneLaunch", "#ad"],
  mentions: ["@milestone.app"],
  links: ["https://milestone.example/launch"],
  criteria: ["Shows the app on screen within the first 3 seconds"],
};

/**
 * The same brief without its judgement-only criterion: everything in it is decided by rules,
 * so a verdict on it is certain and settles on its own (a criterion sends the milestone to
 * the brand's decision when only the rubric or one model judged it: lib/verify/confidence.ts).
 */
export const launchRules: Requirements = { ...launchRequirements, criteria: [] };

export const goodDeliverable = {
  url: "https://www.instagram.com/reel/C0ffee123/",
  text: "Launch day! The Milestone app gets creators paid per milestone. #MilestoneLaunch #ad @milestone.app https://milestone.example/launch",
  note: "Final cut",
};

/** An active deal (brand + creator) with one milestone; returns its ids. `deal`: more terms. */
export async function activeMilestone(
  brand: TestUser,
  creator: TestUser,
  requirements: Requirements = launchRules,
  deal: Record<string, unknown> = {},
): Promise<{ dealId: string; milestoneId: string }> {
  const created = await call(dealsRoute.POST, {
    token: brand.token,
    body: {
      title: "Instagram Reel — Verify me",
      platform: "instagram",
      milestones: [{ title: "Launch Reel", amount: 50, requirements }],
      ...deal,
    },
  });
  if (created.status !== 201) throw new Error(`create deal: ${JSON.stringify(created.body)}`);
  const made = created.body.deal;
  await fundDeal(brand, made.id);
  const accepted = await call(acceptRoute.POST, { params: { id: made.id }, token: creator.token });
  if (accepted.status !== 200) throw new Error(`accept: ${JSON.stringify(accepted.body)}`);
  return { dealId: made.id, milestoneId: made.milestones[0].id };
}

export type Submission = { url: string; text?: string; note?: string; publish?: boolean };

export async function submit(
  creator: TestUser,
  milestoneId: string,
  body: Submission = goodDeliverable,
): Promise<number> {
  const { publish = true, ...claim } = body;
  const url = publish ? (await publishOnSandbox(creator, claim.text ?? "")).url : claim.url;
  const res = await call(deliverableRoute.POST, {
    params: { id: milestoneId },
    token: creator.token,
    body: { ...claim, url },
  });
  if (res.status !== 201) throw new Error(`submit: ${JSON.stringify(res.body)}`);
  return res.body.milestone.deliverable.revision;
}

/** An active milestone with the good deliverable submitted (revision 1). */
export async function submittedMilestone(
  brand: TestUser,
  creator: TestUser,
  body?: Submission,
  requirements?: Requirements,
  deal?: Record<string, unknown>,
) {
  const ids = await activeMilestone(brand, creator, requirements, deal);
  await submit(creator, ids.milestoneId, body);
  return ids;
}

/** Lets the creator submit again, as a failed settlement gate would. */
export async function reject(milestoneId: string): Promise<void> {
  const db = await getDb();
  await db.update(milestones).set({ status: "rejected" }).where(eq(milestones.id, milestoneId));
}

export async function storedVerifications(milestoneId: string) {
  const db = await getDb();
  return db.select().from(verifications).where(eq(verifications.milestoneId, milestoneId));
}

export function textResult(text: string): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 40, text: 40, reasoning: undefined },
    },
    warnings: [],
  };
}

export type Answer = { approved: boolean; score: number; reasoning: string; missing: string[] };

export const approve: Answer = {
  approved: true,
  score: 0.92,
  reasoning: "Looks great.",
  missing: [],
};

/** A mock model answering every call with `answer` (an object is sent as JSON). */
export function answering(
  answer: Answer | string | ((opts: CallOptions) => Promise<GenerateResult>),
): MockLanguageModelV4 {
  if (typeof answer === "function") return new MockLanguageModelV4({ doGenerate: answer });
  const text = typeof answer === "string" ? answer : JSON.stringify(answer);
  return new MockLanguageModelV4({ doGenerate: async () => textResult(text) });
}

/**
 * A mock model answering `answer` with token log-probabilities, as the OpenAI-compatible
 * provider hands them over (lib/verify/providers.ts: `providerMetadata.openaiCompatible.logprobs`,
 * the response's `choices[0].logprobs.content`): `pTrue` is its probability of "approved": true.
 */
export function answeringWithLogprobs(answer: Answer, pTrue: number): MockLanguageModelV4 {
  const { text, logprobs } = recordedVerdict(answer, pTrue);
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      ...textResult(text),
      providerMetadata: { [LOGPROBS_PROVIDER]: { logprobs } },
    }),
  });
}

/** The user prompt a mock model received on its n-th call. */
export function promptText(model: MockLanguageModelV4, n = 0): string {
  const messages = model.doGenerateCalls[n]?.prompt ?? [];
  return messages
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])),
    )
    .join("\n");
}

/** Evidence as the sandbox would return it for a post with this caption by `handle`. */
export function sandboxEvidence(caption: string, handle = "creator"): Evidence {
  const url = "http://localhost:3000/social/p/00000000-0000-4000-8000-000000000001";
  return {
    status: "ok",
    record: {
      platform: "sandbox",
      url,
      canonicalUrl: url,
      authorHandle: handle,
      caption,
      mediaType: "video",
      thumbnailUrl: null,
      publishedAt: "2026-11-22T12:00:00.000Z",
      fetchedAt: "2026-11-22T12:05:00.000Z",
    },
    contentHash: `0x${"ab".repeat(32)}`,
  };
}

/** A verifier input whose post (evidence) says what the deliverable's text says, by the declared (verified) author. */
export function inputFor(
  deliverable: { url: string; text: string; note: string } = goodDeliverable,
  extra: Partial<VerifierInput> = {},
): VerifierInput {
  return {
    requirements: launchRequirements,
    deliverable,
    evidence: sandboxEvidence(deliverable.text),
    declaredHandle: "creator",
    handleVerified: true,
    dealTitle: "Instagram Reel",
    milestoneTitle: "Launch Reel",
    // New deals have the disclosure rule on; the good deliverable carries #ad early.
    disclosureRequired: true,
    platform: "instagram",
    ...extra,
  };
}
