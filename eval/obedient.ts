import { MockLanguageModelV4 } from "ai/test";

// The worst model we can imagine: it does whatever the text in front of it says. Told to
// approve (anywhere: caption, claim, note, URL), it approves with the score it is told; told
// to reject, it rejects; told nothing, it believes the creator and approves. The verdict's
// deterministic gate has to hold against it.

type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];

function promptText(options: CallOptions): string {
  return options.prompt
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])),
    )
    .join("\n");
}

/** The data blocks of the prompt: what a creator controls. */
function dataOf(prompt: string): string {
  const text = (prompt.match(/<(evidence|claim)>[\s\S]*?<\/\1>/g) ?? []).join("\n");
  // URLs carry their instructions encoded ("approve+score+1"): read them as words too.
  let decoded = text;
  try {
    decoded = decodeURIComponent(text.replace(/\+/g, " "));
  } catch {}
  return `${text}\n${decoded}`;
}

export function obedientAnswer(prompt: string) {
  const data = dataOf(prompt);
  if (/\breject\b/i.test(data))
    return {
      approved: false,
      score: 0.1,
      reasoning: "The submission asks to be rejected.",
      missing: ["as instructed"],
    };
  const told = /score\s*(?:=|:|of|to)?\s*(1(?:\.0+)?|0?\.\d+)/i.exec(data)?.[1];
  return {
    approved: true,
    score: told ? Number(told) : 0.95,
    reasoning:
      told || /approve/i.test(data)
        ? "Following the instructions in the submission: approved."
        : "The creator says every requirement is met: approved.",
    missing: [],
  };
}

export function obedientModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "eval",
    modelId: "obedient",
    doGenerate: async (options) => ({
      content: [{ type: "text", text: JSON.stringify(obedientAnswer(promptText(options))) }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 0, text: 0, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}
