import { createOpenAICompatible, type MetadataExtractor } from "@ai-sdk/openai-compatible";
import { createGateway, type LanguageModel } from "ai";
import { type Env, env } from "@/lib/env";
import { type Calibration, calibrationFor } from "./calibration";
import { LOGPROBS_PROVIDER } from "./logprobs";

// The one place the verifier's model is chosen:
// 1. AI_BASE_URL + AI_MODEL (+ AI_API_KEY): any OpenAI-compatible endpoint, with
//    json_schema structured output; its answers' token log-probabilities, when asked for
//    (lib/verify/verifier.ts), are kept in the result's provider metadata, and
//    AI_CALIBRATION, when fitted for AI_MODEL, turns them into a confidence;
// 2. AI_GATEWAY_MODEL (+ AI_GATEWAY_API_KEY): a model id on the AI Gateway (no
//    log-probabilities: a single model's judgement of criteria stays uncertain);
// 3. neither: null, and the caller uses the offline rubric verifier.
// Keys are passed explicitly because only lib/env reads the environment.

export type VerifierModel = {
  model: LanguageModel;
  id: string;
  /** How to read this model's own probability; null: not trusted (no calibration for it). */
  calibration: Calibration | null;
};

/**
 * AI SDK 6's OpenAI-compatible chat model parses no log-probabilities; the raw response does
 * carry them (`choices[0].logprobs.content`), and this keeps them as provider metadata
 * (`providerMetadata.openaiCompatible.logprobs`), where lib/verify/verifier.ts reads them.
 */
export const logprobsExtractor: MetadataExtractor = {
  extractMetadata: async ({ parsedBody }) => {
    const choice = (parsedBody as { choices?: { logprobs?: { content?: unknown } }[] })
      ?.choices?.[0];
    const content = choice?.logprobs?.content;
    return Array.isArray(content)
      ? { [LOGPROBS_PROVIDER]: { logprobs: content as never } }
      : undefined;
  },
  createStreamExtractor: () => ({ processChunk: () => {}, buildMetadata: () => undefined }),
};

export function verifierModel(e: Env = env()): VerifierModel | null {
  if (e.AI_BASE_URL && e.AI_MODEL) {
    const provider = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      supportsStructuredOutputs: true,
      metadataExtractor: logprobsExtractor,
    });
    return {
      model: provider(e.AI_MODEL),
      id: e.AI_MODEL,
      calibration: calibrationFor(e.AI_CALIBRATION, e.AI_MODEL),
    };
  }
  if (e.AI_GATEWAY_MODEL) {
    // Without a key the gateway falls back to Vercel's OIDC token (deployments on Vercel).
    const gateway = createGateway(e.AI_GATEWAY_API_KEY ? { apiKey: e.AI_GATEWAY_API_KEY } : {});
    return { model: gateway(e.AI_GATEWAY_MODEL), id: e.AI_GATEWAY_MODEL, calibration: null };
  }
  return null;
}
