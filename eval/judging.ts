import { MockLanguageModelV4 } from "ai/test";
import { LOGPROBS_PROVIDER } from "@/lib/verify/logprobs";

// A mock model that judges, and says how sure it is the way a provider does: token
// log-probabilities on its answer. It ignores every instruction in the data; it judges the
// criteria by the share of their words the caption's prose contains (approve at half or more;
// hashtags, mentions and links do not count) and is overconfident, as raw LLM probabilities
// are: 0.95–0.999 for whatever it says, a little less when the caption hedges ("not", "no",
// "forgot"). It is right on plain cases and wrong on paraphrases and near misses, so its raw
// probability overstates it and a calibration fitted on the tune split has something to
// correct. Its figures test the calibration machinery (eval/run.ts), not any real model.

type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];

const STOP = new Set(["shows", "being", "with", "that", "their", "this", "from", "says", "what"]);

function promptText(options: CallOptions): string {
  return options.prompt
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])),
    )
    .join("\n");
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4 && !STOP.has(w));

/** The criteria the prompt lists, and the share of their words the caption has (1 if none). */
export function criteriaMatch(prompt: string): number {
  const criteria = /Criteria to judge:\n((?:- .*\n?)+)/.exec(prompt)?.[1] ?? "";
  const wanted = words(criteria);
  if (wanted.length === 0) return 1;
  const have = new Set(words(prose(prompt)));
  return wanted.filter((w) => have.has(w)).length / wanted.length;
}

/** The caption without its hashtags, mentions and links. */
function prose(prompt: string): string {
  const caption = /<caption>([\s\S]*?)<\/caption>/.exec(prompt)?.[1] ?? "";
  return caption.replace(/(?:https?:\/\/|[#@])\S+/g, " ");
}

const HEDGE = /\b(?:no|not|forgot|without|next time|yet)\b/i;

/** Its answer and its probability for "approved": true. */
export function judgingAnswer(prompt: string) {
  const share = criteriaMatch(prompt);
  const approved = share >= 0.5;
  const hedged = HEDGE.test(prose(prompt));
  const sure = approved ? (hedged ? 0.96 : 0.95 + 0.049 * share) : 0.97 - 0.04 * share;
  return {
    answer: {
      approved,
      score: approved ? 0.9 : 0.3,
      reasoning: approved
        ? "The caption covers the criteria."
        : "The caption does not show the criteria.",
      missing: approved ? [] : ["the criterion"],
    },
    pTrue: approved ? sure : 1 - sure,
  };
}

const tokenEntry = (token: string, logprob: number, top: [string, number][]) => ({
  token,
  logprob,
  top_logprobs: top.map(([t, lp]) => ({ token: t, logprob: lp })),
});

/** The answer's tokens with their log-probabilities, shaped like a chat completion's. */
function logprobsOf(answer: { approved: boolean }, text: string, pTrue: number) {
  const value = answer.approved ? "true" : "false";
  const other = answer.approved ? "false" : "true";
  const p = answer.approved ? pTrue : 1 - pTrue;
  const rest = text.slice(`{"approved":${value}`.length);
  return [
    tokenEntry('{"', 0, [['{"', 0]]),
    tokenEntry("approved", 0, [["approved", 0]]),
    tokenEntry('":', 0, [['":', 0]]),
    tokenEntry(value, Math.log(p), [
      [value, Math.log(p)],
      [other, Math.log(1 - p)],
    ]),
    tokenEntry(rest, 0, [[rest, 0]]),
  ];
}

export function judgingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "eval",
    modelId: "judging",
    doGenerate: async (options) => {
      const { answer, pTrue } = judgingAnswer(promptText(options));
      const text = JSON.stringify(answer);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 0, text: 0, reasoning: undefined },
        },
        // As lib/verify/providers.ts hands over an OpenAI-compatible server's logprobs.
        providerMetadata: { [LOGPROBS_PROVIDER]: { logprobs: logprobsOf(answer, text, pTrue) } },
        warnings: [],
      };
    },
  });
}
