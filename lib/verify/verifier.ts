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
import { type Calibration, calibrate } from "./calibration";
import { deterministicCheck } from "./checks";
import { CERTAIN, UNCERTAIN, verdictConfidence } from "./confidence";
import { clampScore, guardVerdict, modelDeductions } from "./guards";
import { panelModelId } from "./labels";
import { judgementProbability, logprobsOfResult, logprobsRequest } from "./logprobs";
import { buildPrompt, PROMPT_VERSION } from "./prompt";
import { verifierModel } from "./providers";
import { RUBRIC_MODEL_ID, rubricVerdict } from "./rubric";
import { type ModelVerdict, type Verdict, type VerifierInput, verdictSchema } from "./verdict";

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
  /** Several models instead of one: the majority decides, their agreement is the confidence. */
  panel?: PanelMember[];
  /**
   * How to turn the model's own probability for its judgement into a confidence
   * (lib/verify/calibration.ts). Omitted: the configured model's (AI_CALIBRATION), none for a
   * model passed in. null or none: the probability is not trusted; a judged criterion stays
   * UNCERTAIN.
   */
  calibration?: Calibration | null;
  /**
   * Ask the provider for token log-probabilities (default: when there is a calibration to use
   * them). The eval asks without one, to fit one.
   */
  logprobs?: boolean;
};

export type PanelMember = { model: LanguageModel; id: string };

export type VerifierResult = {
  verdict: Verdict;
  model: string;
  /** The prompt's version when a model answered; null for the rubric and the evidence gate. */
  promptVersion: string | null;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /**
   * The model's own probability for the judgement it gave (`approved`), read from token
   * log-probabilities, before any calibration; null when there were none (lib/verify/logprobs.ts).
   */
  rawProbability: number | null;
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
  const bare = { promptVersion: null, inputTokens: null, outputTokens: null, rawProbability: null };
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
      {
        deductions: [
          { bps: 10_000, reason: `the post could not be read (${input.evidence.status})` },
        ],
        // Nothing was judged: neither a payment nor a rejection rests on anything.
        confidence: verdictConfidence(input, missing, 0),
      },
    );
    return { ...bare, verdict, model: NO_EVIDENCE_MODEL_ID, latencyMs: elapsed() };
  }

  if (opts.panel && opts.panel.length > 0) return runPanel(input, opts.panel, opts, started);
  const configured = opts.model === undefined ? verifierModel() : null;
  const model = opts.model === undefined ? configured?.model : opts.model;
  if (!model) {
    const rubric = rubricVerdict(input);
    const verdict = guardVerdict(rubric, missing, rubric);
    return { ...bare, verdict, model: RUBRIC_MODEL_ID, latencyMs: elapsed() };
  }
  const modelId = opts.modelId ?? configured?.id ?? modelLabel(model);
  const calibration = opts.calibration !== undefined ? opts.calibration : configured?.calibration;
  const logprobs = opts.logprobs ?? !!calibration;
  const tokens: Tokens = { input: null, output: null };
  const { answer, probability } = await askModel(
    input,
    model,
    modelId,
    { ...opts, logprobs },
    tokens,
    elapsed,
  );
  // One model: without criteria it judged nothing the rules do not (certain). With criteria,
  // its own probability for its judgement, calibrated on the eval, is the confidence; with no
  // calibration (or no log-probabilities) nothing says how far to trust it: uncertain.
  const judged =
    input.requirements.criteria.length === 0
      ? CERTAIN
      : calibration && probability !== null
        ? calibrate(calibration, probability)
        : UNCERTAIN;
  const verdict = guardVerdict(answer, missing, {
    deductions: modelDeductions(clampScore(answer.score), mergedMissing(answer, missing)),
    confidence: verdictConfidence(input, missing, judged),
  });
  return {
    verdict,
    model: modelId,
    promptVersion: PROMPT_VERSION,
    latencyMs: elapsed(),
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    rawProbability: probability,
  };
}

const mergedMissing = (answer: ModelVerdict, missing: string[]) =>
  guardVerdict(answer, missing).missing;

/**
 * Several models judge the same post; the majority's answer is the verdict (a tie does not
 * approve), and the share of models agreeing with it is its confidence. A member that fails
 * abstains; when all fail, the panel fails.
 */
async function runPanel(
  input: VerifierInput,
  panel: PanelMember[],
  opts: VerifierOptions,
  started: number,
): Promise<VerifierResult> {
  const elapsed = () => Math.round(performance.now() - started);
  const { missing } = deterministicCheck(input);
  const tokens: Tokens = { input: null, output: null };
  const answers = await Promise.all(
    panel.map((m) =>
      askModel(input, m.model, m.id, { ...opts, logprobs: false }, tokens, elapsed).then(
        ({ answer }) => ({ id: m.id, verdict: guardVerdict(answer, missing) }),
        (err: unknown) => {
          log.warn("panel member failed; it abstains", { err, model: m.id });
          return null;
        },
      ),
    ),
  );
  const voted = answers.filter((a) => a !== null);
  if (voted.length === 0)
    throw new AppError(
      "verifier_unavailable",
      "The verifier could not produce a verdict right now. Nothing was recorded; please try again.",
    );
  const yes = voted.filter((a) => a.verdict.approved);
  const approved = yes.length * 2 > voted.length;
  const side = approved ? yes : voted.filter((a) => !a.verdict.approved);
  const scores = side.map((a) => a.verdict.score).sort((a, b) => a - b);
  const score = scores[Math.floor((scores.length - 1) / 2)] ?? 0;
  const sideMissing = side.flatMap((a) => a.verdict.missing);
  const verdict = guardVerdict(
    {
      approved,
      score,
      reasoning: voted.map((a) => `${a.id}: ${a.verdict.reasoning}`).join(" "),
      missing: approved ? [] : sideMissing,
    },
    missing,
    {
      deductions: modelDeductions(score, [...new Set([...missing, ...sideMissing])]),
      // Absent members count against the agreement: they did not vouch for the verdict.
      confidence: verdictConfidence(
        input,
        missing,
        input.requirements.criteria.length === 0 ? CERTAIN : side.length / panel.length,
      ),
    },
  );
  return {
    verdict,
    model: panelModelId(panel.map((m) => m.id)),
    promptVersion: PROMPT_VERSION,
    latencyMs: elapsed(),
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    rawProbability: null,
  };
}

/**
 * One model's raw answer (unguarded) and its own probability for its judgement when asked for
 * log-probabilities and given them, with bounded retries; 502 verifier_unavailable at the end.
 */
async function askModel(
  input: VerifierInput,
  model: LanguageModel,
  modelId: string,
  opts: VerifierOptions,
  tokens: Tokens,
  elapsed: () => number,
): Promise<{ answer: ModelVerdict; probability: number | null }> {
  const timeoutMs = opts.timeoutMs ?? env().AI_TIMEOUT_MS;
  const maxRetries = Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES);
  const retryDelayMs = opts.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const { system, prompt } = buildPrompt(input);

  let retries = 0;
  let schemaRetries = 0;
  for (;;) {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const result = await Promise.race([
        generateText({
          model,
          output: Output.object({ schema: verdictSchema, name: "verdict" }),
          instructions: system,
          prompt,
          abortSignal: signal,
          maxRetries: 0,
          // Keyed by provider: an OpenAI-compatible server gets `logprobs` in its body, any
          // other provider ignores it.
          ...(opts.logprobs ? { providerOptions: logprobsRequest } : {}),
        }),
        abortion(signal),
      ]);
      addUsage(tokens, result.usage);
      const entries = opts.logprobs ? logprobsOfResult(result.providerMetadata) : null;
      return {
        answer: result.output,
        probability: entries ? judgementProbability(entries) : null,
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
