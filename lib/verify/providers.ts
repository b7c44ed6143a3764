import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createGateway, type LanguageModel } from "ai";
import { type Env, env } from "@/lib/env";

// The one place the verifier's model is chosen:
// 1. AI_BASE_URL + AI_MODEL (+ AI_API_KEY): any OpenAI-compatible endpoint, with
//    json_schema structured output;
// 2. AI_GATEWAY_MODEL (+ AI_GATEWAY_API_KEY): a model id on the AI Gateway;
// 3. neither: null, and the caller uses the offline rubric verifier.
// Keys are passed explicitly because only lib/env reads the environment.

export type VerifierModel = { model: LanguageModel; id: string };

export function verifierModel(e: Env = env()): VerifierModel | null {
  if (e.AI_BASE_URL && e.AI_MODEL) {
    const provider = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      supportsStructuredOutputs: true,
    });
    return { model: provider(e.AI_MODEL), id: e.AI_MODEL };
  }
  if (e.AI_GATEWAY_MODEL) {
    // Without a key the gateway falls back to Vercel's OIDC token (deployments on Vercel).
    const gateway = createGateway(e.AI_GATEWAY_API_KEY ? { apiKey: e.AI_GATEWAY_API_KEY } : {});
    return { model: gateway(e.AI_GATEWAY_MODEL), id: e.AI_GATEWAY_MODEL };
  }
  return null;
}
