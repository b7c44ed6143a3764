import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { calibrate } from "@/lib/verify/calibration";
import { verifierModel } from "@/lib/verify/providers";
import { runVerifier } from "@/lib/verify/verifier";
import { inputFor, launchRequirements } from "./fixtures";
import { recordedCompletion } from "./logprob-fixtures";

// The provider choice, and the OpenAI-compatible path end to end against a local server
// that speaks the chat-completions protocol.

type Seen = { path: string; auth: string | undefined; body: Record<string, unknown> };

let server: Server;
let baseURL: string;
const seen: Seen[] = [];
let reply: (n: number) => { status: number; body: unknown } = () => ({ status: 500, body: {} });

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      seen.push({ path: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(raw) });
      const { status, body } = reply(seen.length);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const completion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "judge-small",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 321, completion_tokens: 54, total_tokens: 375 },
});

const input = inputFor();

describe("verifierModel", () => {
  it("is null (offline rubric) when nothing is configured", () => {
    expect(verifierModel(parseEnv({}))).toBeNull();
  });

  it("uses the gateway model id when only AI_GATEWAY_MODEL is set", () => {
    const chosen = verifierModel(
      parseEnv({ AI_GATEWAY_MODEL: "openai/gpt-5-mini", AI_GATEWAY_API_KEY: "k" }),
    );
    expect(chosen?.id).toBe("openai/gpt-5-mini");
    expect(chosen?.model).toMatchObject({ modelId: "openai/gpt-5-mini", provider: "gateway" });
  });

  it("prefers an OpenAI-compatible endpoint over the gateway", () => {
    const chosen = verifierModel(
      parseEnv({
        AI_BASE_URL: baseURL,
        AI_MODEL: "judge-small",
        AI_GATEWAY_MODEL: "openai/gpt-5-mini",
      }),
    );
    expect(chosen?.id).toBe("judge-small");
  });
});

describe("OpenAI-compatible endpoint", () => {
  const configured = () =>
    verifierModel(
      parseEnv({ AI_BASE_URL: baseURL, AI_MODEL: "judge-small", AI_API_KEY: "sk-test" }),
    );

  it("sends a json_schema response format and the key, and stores the guarded answer", async () => {
    seen.length = 0;
    reply = () => ({
      status: 200,
      body: completion(
        JSON.stringify({ approved: true, score: 0.88, reasoning: "Good.", missing: [] }),
      ),
    });
    const chosen = configured();
    if (!chosen) throw new Error("no model");
    const res = await runVerifier(input, {
      model: chosen.model,
      modelId: chosen.id,
      retryDelayMs: 1,
    });
    expect(res).toMatchObject({
      verdict: { approved: true, score: 0.88, missing: [] },
      model: "judge-small",
      inputTokens: 321,
      outputTokens: 54,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.path).toBe("/v1/chat/completions");
    expect(seen[0]?.auth).toBe("Bearer sk-test");
    expect(seen[0]?.body.model).toBe("judge-small");
    expect(seen[0]?.body.response_format).toMatchObject({ type: "json_schema" });
  });

  it("retries a 503 from the server, then succeeds", async () => {
    seen.length = 0;
    reply = (n) =>
      n === 1
        ? { status: 503, body: { error: { message: "overloaded" } } }
        : {
            status: 200,
            body: completion(
              JSON.stringify({ approved: false, score: 0.3, reasoning: "Weak.", missing: ["x"] }),
            ),
          };
    const chosen = configured();
    if (!chosen) throw new Error("no model");
    const res = await runVerifier(input, { model: chosen.model, retryDelayMs: 1 });
    expect(res.verdict).toMatchObject({ approved: false, score: 0.3, missing: ["x"] });
    expect(seen).toHaveLength(2);
  });
});

describe("the model's own probability (log-probabilities), calibrated", () => {
  const calibration = { model: "judge-small", method: "platt", a: 0.5, b: -0.2, cases: 40 };
  const withCriteria = inputFor(undefined, { requirements: launchRequirements });
  const answer = { approved: true, score: 0.9, reasoning: "Shows the app.", missing: [] };
  const at = (env: Record<string, string>) =>
    verifierModel(parseEnv({ AI_BASE_URL: baseURL, AI_MODEL: "judge-small", ...env }));

  it("with a calibration for the model: asks for log-probabilities and calibrates the judgement's", async () => {
    const chosen = at({ AI_CALIBRATION: JSON.stringify(calibration) });
    expect(chosen?.calibration).toEqual(calibration);
    if (!chosen) throw new Error("no model");
    seen.length = 0;
    reply = () => ({ status: 200, body: recordedCompletion(answer, 0.97, "judge-small") });
    const res = await runVerifier(withCriteria, {
      model: chosen.model,
      modelId: chosen.id,
      calibration: chosen.calibration,
      retryDelayMs: 1,
    });
    expect(seen[0]?.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
    expect(res.rawProbability).toBeCloseTo(0.97, 6);
    expect(res.verdict.approved).toBe(true);
    expect(res.verdict.confidence).toBeCloseTo(calibrate(calibration, 0.97), 4);
    expect(res.verdict.confidence).not.toBe(0.5);
  });

  it("without one (unset, or fitted for another model): nothing is asked and the judgement stays uncertain", async () => {
    const envs: Record<string, string>[] = [
      {},
      { AI_CALIBRATION: JSON.stringify({ ...calibration, model: "other" }) },
    ];
    for (const env of envs) {
      const chosen = at(env);
      expect(chosen?.calibration).toBeNull();
      if (!chosen) throw new Error("no model");
      seen.length = 0;
      reply = () => ({ status: 200, body: recordedCompletion(answer, 0.97, "judge-small") });
      const res = await runVerifier(withCriteria, {
        model: chosen.model,
        modelId: chosen.id,
        calibration: chosen.calibration,
        retryDelayMs: 1,
      });
      expect(seen[0]?.body).not.toHaveProperty("logprobs");
      expect(res.rawProbability).toBeNull();
      expect(res.verdict.confidence).toBe(0.5);
    }
  });

  it("a provider that returns no log-probabilities leaves it uncertain; a malformed calibration is refused at start", async () => {
    const chosen = at({ AI_CALIBRATION: JSON.stringify(calibration) });
    if (!chosen) throw new Error("no model");
    reply = () => ({ status: 200, body: completion(JSON.stringify(answer)) });
    const res = await runVerifier(withCriteria, {
      model: chosen.model,
      calibration: chosen.calibration,
      retryDelayMs: 1,
    });
    expect(res.rawProbability).toBeNull();
    expect(res.verdict.confidence).toBe(0.5);
    expect(() => at({ AI_CALIBRATION: "platt 0.5 -0.2" })).toThrow(/AI_CALIBRATION/);
    expect(() => at({ AI_CALIBRATION: JSON.stringify({ model: "m", a: 1 }) })).toThrow(
      /AI_CALIBRATION/,
    );
  });
});
