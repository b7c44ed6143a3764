import { z } from "zod";

// A model's own probability for the judgement it gave, from the token log-probabilities an
// OpenAI-compatible chat completion returns when asked (`logprobs: true, top_logprobs: k`):
// `choices[0].logprobs.content` is one entry per generated token, `{ token, logprob, bytes,
// top_logprobs: [{ token, logprob, bytes }] }`. The verdict is JSON whose `approved` is a
// boolean: the judgement is the token where that value starts ("true" or "false"). Its
// probability is the mass of the alternatives at that position that would have started the
// same value, over the mass of those that would have started either value (renormalised: the
// model could only answer one of the two); with no alternatives, the chosen token's own
// probability. Anything unexpected (no entries, no `approved`, tokens that do not spell the
// text) gives null: no probability, and the confidence stays as without log-probabilities.

/**
 * Where the entries travel: the provider-options key of the OpenAI-compatible provider. The
 * request asks for them under it (`providerOptions.openaiCompatible: { logprobs: true,
 * top_logprobs }`, passed through into the body) and lib/verify/providers.ts puts them back
 * under it (`providerMetadata.openaiCompatible.logprobs`); a mock model answers the same way.
 */
export const LOGPROBS_PROVIDER = "openaiCompatible";
/** How many alternatives per token to ask for (OpenAI allows up to 20). */
export const TOP_LOGPROBS = 5;

/** The request's provider options that ask an OpenAI-compatible server for log-probabilities. */
export const logprobsRequest = {
  [LOGPROBS_PROVIDER]: { logprobs: true, top_logprobs: TOP_LOGPROBS },
} as const;

/** The entries a generateText result carries, when the provider returned any. */
export function logprobsOfResult(providerMetadata: unknown): TokenLogprobs | null {
  const meta = (
    providerMetadata as Record<string, { logprobs?: unknown } | undefined> | undefined
  )?.[LOGPROBS_PROVIDER];
  return logprobsOfChoice(meta?.logprobs);
}

const topLogprob = z.object({ token: z.string(), logprob: z.number() });
const tokenLogprob = topLogprob.extend({ top_logprobs: z.array(topLogprob).default([]) });
export const tokenLogprobs = z.array(tokenLogprob);
export type TokenLogprobs = z.infer<typeof tokenLogprobs>;

/** Reads the entries from a chat completion's `choices[0].logprobs` (or its `content`). */
export function logprobsOfChoice(logprobs: unknown): TokenLogprobs | null {
  const content =
    logprobs && typeof logprobs === "object" && !Array.isArray(logprobs)
      ? (logprobs as { content?: unknown }).content
      : logprobs;
  const parsed = tokenLogprobs.safeParse(content);
  return parsed.success && parsed.data.length > 0 ? parsed.data : null;
}

const APPROVED_VALUE = /"approved"\s*:\s*/;

/** Which value a piece of text starting at the value's position begins: true, false or neither. */
function startsValue(rest: string): boolean | null {
  const t = rest.trimStart();
  if (t.startsWith("t")) return true;
  if (t.startsWith("f")) return false;
  return null;
}

/**
 * The model's probability (0–1) for the `approved` value it generated, or null when the
 * log-probabilities do not show it. `tokens` are the entries of the answer's tokens in order.
 */
export function judgementProbability(tokens: TokenLogprobs): number | null {
  const text = tokens.map((t) => t.token).join("");
  const match = APPROVED_VALUE.exec(text);
  if (!match) return null;
  const at = match.index + match[0].length;
  const given = startsValue(text.slice(at));
  if (given === null) return null;
  // The token that holds the value's first character, and where in it the value starts.
  let start = 0;
  for (const t of tokens) {
    const end = start + t.token.length;
    if (at < end) {
      const offset = at - start;
      const prefix = t.token.slice(0, offset);
      const mass = { yes: 0, no: 0 };
      // The alternatives the provider listed, and the chosen token itself (sampled, it may
      // not be among the most likely).
      const alternatives = t.top_logprobs.some((alt) => alt.token === t.token)
        ? t.top_logprobs
        : [...t.top_logprobs, t];
      for (const alt of alternatives) {
        // An alternative counts when it keeps what this token had before the value.
        if (!alt.token.startsWith(prefix)) continue;
        const value = startsValue(alt.token.slice(offset));
        if (value === true) mass.yes += Math.exp(alt.logprob);
        else if (value === false) mass.no += Math.exp(alt.logprob);
      }
      const total = mass.yes + mass.no;
      if (total <= 0 || !Number.isFinite(total)) return null;
      const p = (given ? mass.yes : mass.no) / total;
      // With the chosen token alone, its own probability is all there is.
      return Math.min(1, Math.max(0, t.top_logprobs.length > 0 ? p : Math.exp(t.logprob)));
    }
    start = end;
  }
  return null;
}
