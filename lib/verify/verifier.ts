import {
  APICallError,
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
  NoObjectGeneratedError,
  Output,
} from "ai";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { deterministicCheck } from "./checks";
import { guardVerdict } from "./guards";
import { buildPrompt, PROMPT_VERSION } from "./prompt";
import { verifierModel } from "./providers";
import { RUBRIC_MODEL_ID, rubricVerdict } from "./rubric";
import { type Verdict, type VerifierInput, verdictSchema } from "./verdict";

// Runs one verification: the configured model (or the offline rubric), then the guards.
// Retries are ours, not the SDK's, so they stay bounded and only cover failures that
// can pass: timeouts, 429, 5xx, network errors, and at most one answer off the schema.
// A final failure is a 502 `verifier_unavailable` whose cause is logged, not returned.

export type VerifierOptions = {
  /** The model to ask. Omitted: the configured one (lib/verify/providers). null: the rubric. */
  model?: LanguageModel | null;
  /** Stored with the verdict; defaults to the configured id or the model's provider:modelId. */
  modelId?: string;
  /** Per attempt; defaults to AI_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Retries after a transient failure (default 2); at most one of them for a schema miss. */
  maxRetries?: number;
  /** First backoff delay, doubled on each retry (default 250 ms). */
  retryDelayMs?: number;
};

export type VerifierResult = {
  verdict: Verdict;
  model: string;
  /** The prompt's version when a model answered; null for the rubric and the evidence gate. */
  promptVersion: string | null;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
};

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_RETRY_DELAY_MS = 250;
const MAX_SCHEMA_RETRIES = 1;

/**
 * The longest runVerifier can take with these options: every attempt running into its
 * timeout, and the backoffs between them. The verifier lease must outlast it.
 */
export function verifierWorstCaseMs(opts: VerifierOptions = {}): number {
  const timeoutMs = opts.timeoutMs ?? env().AI_TIMEOUT_MS;
  const maxRetries = Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES);
  const retryDelayMs = opts.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  let backoffs = 0;
  for (let retry = 0; retry < maxRetries; retry++) backoffs += retryDelayMs * 2 ** retry;
  return (maxRetries + 1) * timeoutMs + backoffs;
}

/** The "verifier" of a post that could not be read: nothing to judge, so no model is asked. */
export const NO_EVIDENCE_MODEL_ID = "evidence-gate-v1";

export type FailureKind = "transient" | "schema" | "fatal";

/** Whether a failed model call is worth repeating. */
export function classifyFailure(err: unknown): FailureKind {
  if (NoObjectGeneratedError.isInstance(err)) return "schema";
  if (APICallError.isInstance(err)) return err.isRetryable ? "transient" : "fatal";
  if (typeof err !== "object" || err === null) return "fatal";
  const { name, isRetryable, statusCode, message } = err as Record<string, unknown>;
  if (name === "TimeoutError" || name === "AbortError") return "transient"; // our own timeout
  if (isRetryable === true) return "transient"; // e.g. the gateway's errors
  if (
    typeof statusCode === "number" &&
    (statusCode === 408 || statusCode === 429 || statusCode >= 500)
  )
    return "transient";
  if (
    err instanceof TypeError &&
    typeof message === "string" &&
    /fetch failed|network/i.test(message)
  )
    return "transient";
  return "fatal";
}

function modelLabel(model: LanguageModel): string {
  return typeof model === "string" ? model : `${model.provider}:${model.modelId}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects when the signal aborts, so a provider that ignores the signal cannot hang us. */
function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

type Tokens = { input: number | null; output: number | null };

function addUsage(total: Tokens, usage: LanguageModelUsage | undefined): void {
  if (!usage) return;
  if (usage.inputTokens !== undefined) total.input = (total.input ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== undefined) total.output = (total.output ?? 0) + usage.outputTokens;
}

/** Verifies one deliverable; never returns an unguarded verdict. */
export async function runVerifier(
  input: VerifierInput,
  opts: VerifierOptions = {},
): Promise<VerifierResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { missing } = deterministicCheck(input);
  if (input.evidence.status !== "ok") {
    const verdict = guardVerdict(
      {
        approved: false,
        score: 0,
        reasoning:
          "The post could not be read from its platform, so there is no evidence to judge and it cannot be approved automatically; the brand decides.",
        missing: [],
      },
      missing,
    );
    return {
      verdict,
      model: NO_EVIDENCE_MODEL_ID,
      promptVersion: null,
      latencyMs: elapsed(),
      inputTokens: null,
      outputTokens: null,
    };
  }

  const configured = opts.model === undefined ? verifierModel() : null;
  const model = opts.model === undefined ? configured?.model : opts.model;
  if (!model) {
    const verdict = guardVerdict(rubricVerdict(input), missing);
    return {
      verdict,
      model: RUBRIC_MODEL_ID,
      promptVersion: null,
      latencyMs: elapsed(),
      inputTokens: null,
      outputTokens: null,
    };
  }
  const modelId = opts.modelId ?? configured?.id ?? modelLabel(model);
  const timeoutMs = opts.timeoutMs ?? env().AI_TIMEOUT_MS;
  const maxRetries = Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES);
  const retryDelayMs = opts.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const { system, prompt } = buildPrompt(input);
  const tokens: Tokens = { input: null, output: null };

  let retries = 0;
  let schemaRetries = 0;
  for (;;) {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const result = await Promise.race([
        generateText({
          model,
          output: Output.object({ schema: verdictSchema, name: "verdict" }),
          system,
          prompt,
          abortSignal: signal,
          maxRetries: 0,
        }),
        abortion(signal),
      ]);
      addUsage(tokens, result.usage);
      return {
        verdict: guardVerdict(result.output, missing),
        model: modelId,
        promptVersion: PROMPT_VERSION,
        latencyMs: elapsed(),
        inputTokens: tokens.input,
        outputTokens: tokens.output,
      };
    } catch (err) {
      const kind = classifyFailure(err);
      if (NoObjectGeneratedError.isInstance(err)) addUsage(tokens, err.usage);
      const retry =
        retries < maxRetries &&
        (kind === "transient" || (kind === "schema" && schemaRetries < MAX_SCHEMA_RETRIES));
      const fields = { err, kind, model: modelId, attempt: retries + 1, elapsedMs: elapsed() };
      if (!retry) {
        log.error("verifier failed", fields);
        throw new AppError(
          "verifier_unavailable",
          "The verifier could not produce a verdict right now. Nothing was recorded; please try again.",
          { cause: err },
        );
      }
      log.warn("verifier attempt failed; retrying", fields);
      if (kind === "schema") schemaRetries++;
      await sleep(retryDelayMs * 2 ** retries);
      retries++;
    }
  }
}
