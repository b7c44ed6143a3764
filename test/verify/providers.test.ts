import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { verifierModel } from "@/lib/verify/providers";
import { runVerifier } from "@/lib/verify/verifier";
import { inputFor } from "./fixtures";

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
