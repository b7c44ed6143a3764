// What an OpenAI-compatible chat completion returns with `logprobs: true, top_logprobs: 3`
// for a verdict, in the shape of a recorded gpt-4o-mini answer: one entry per generated token
// (`token`, `logprob`, `bytes`, `top_logprobs`), JSON split where that tokenizer splits it.

const bytes = (s: string) => [...Buffer.from(s, "utf8")];
const entry = (token: string, logprob: number, top: [string, number][] = [[token, logprob]]) => ({
  token,
  logprob,
  bytes: bytes(token),
  top_logprobs: top.map(([t, lp]) => ({ token: t, logprob: lp, bytes: bytes(t) })),
});

/** The answer's text and its token log-probabilities; `pTrue` is the mass on "true". */
export function recordedVerdict(
  answer: { approved: boolean; score: number; reasoning: string; missing: string[] },
  pTrue: number,
): { text: string; logprobs: ReturnType<typeof entry>[] } {
  const value = answer.approved ? "true" : "false";
  const other = answer.approved ? "false" : "true";
  const pValue = answer.approved ? pTrue : 1 - pTrue;
  const rest = JSON.stringify(answer).slice(`{"approved":${value}`.length);
  const tokens = [
    entry('{"', -0.000_002),
    entry("approved", 0),
    entry('":', -0.000_01),
    entry(value, Math.log(pValue), [
      [value, Math.log(pValue)],
      [other, Math.log(1 - pValue)],
      [" true", -14.2],
    ]),
    // The rest in chunks of four characters, each nearly certain.
    ...(rest.match(/[\s\S]{1,4}/g) ?? []).map((t) => entry(t, -0.0003)),
  ];
  return { text: JSON.stringify(answer), logprobs: tokens };
}

/** A whole chat completion body as the provider sends it. */
export function recordedCompletion(
  answer: { approved: boolean; score: number; reasoning: string; missing: string[] },
  pTrue: number,
  model = "gpt-4o-mini-2024-07-18",
) {
  const { text, logprobs } = recordedVerdict(answer, pTrue);
  return {
    id: "chatcmpl-AbC123recorded",
    object: "chat.completion",
    created: 1_732_449_600,
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text, refusal: null },
        logprobs: { content: logprobs, refusal: null },
        finish_reason: "stop",
      },
    ],
    usage: {
      prompt_tokens: 812,
      completion_tokens: logprobs.length,
      total_tokens: 812 + logprobs.length,
    },
    system_fingerprint: "fp_0ba0d124f1",
  };
}
