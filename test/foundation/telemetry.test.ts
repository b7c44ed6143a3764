import { trace } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as settleRoute from "@/app/api/settle/route";
import { env } from "@/lib/env";
import { REQUEST_ID_ATTRIBUTE } from "@/lib/telemetry";
import { call } from "../helpers/http";
import { parties, transfersTo } from "../settle/fixtures";
import { submittedMilestone } from "../verify/fixtures";

// Traces (lib/telemetry.ts): one settle's spans, collected in memory by a real OpenTelemetry
// SDK provider (as instrumentation.ts registers one with an OTLP exporter): the request's
// span, and under it a span per database transaction and per JSON-RPC call, each carrying
// the request's id, and no secret anywhere.

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider;

beforeAll(() => {
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
});

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe("a settle's trace", () => {
  it("is one tree under the request's span, with its transactions and RPC calls, each with the request id", async () => {
    const { brand, creator, wallet } = await parties();
    const { milestoneId } = await submittedMilestone(brand, creator);
    exporter.reset();

    const res = await call(settleRoute.POST, {
      path: "/api/settle",
      token: brand.token,
      body: { milestoneId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await transfersTo(wallet)).toHaveLength(1);
    const requestId = res.headers.get("request-id");
    expect(requestId).toMatch(/^req_/);

    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === "POST /api/settle");
    expect(root, spans.map((s) => s.name).join(", ")).toBeDefined();
    if (!root) return;
    expect(root.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/settle",
      "http.response.status_code": 200,
      [REQUEST_ID_ATTRIBUTE]: requestId,
    });

    // Everything the request did is in its tree (the root's trace, reached by parent links).
    const tree = spans.filter((s) => s.spanContext().traceId === root.spanContext().traceId);
    const byId = new Map(tree.map((s) => [idOf(s), s]));
    for (const s of tree) {
      if (s === root) continue;
      let up = parentOf(s);
      while (up && up !== idOf(root)) up = parentOf(byId.get(up) as ReadableSpan);
      expect(up, `${s.name} hangs under the request`).toBe(idOf(root));
      expect(s.attributes[REQUEST_ID_ATTRIBUTE], s.name).toBe(requestId);
    }
    const names = tree.map((s) => s.name);
    // The claim, the release record and its outcome: several statement groups.
    expect(names.filter((n) => n === "db.transaction").length).toBeGreaterThanOrEqual(2);
    // The release itself went out, and its receipt came back, over JSON-RPC.
    expect(names).toContain("rpc eth_sendRawTransaction");
    expect(names.some((n) => n === "rpc eth_getTransactionReceipt")).toBe(true);
    const rpc = tree.find((s) => s.name === "rpc eth_sendRawTransaction");
    expect(rpc?.attributes).toMatchObject({
      "rpc.system": "jsonrpc",
      "rpc.method": "eth_sendRawTransaction",
      "server.address": new URL(env().RPC_URL as string).hostname,
    });

    // No secret in any span: not the caller's token, the signer's key or the RPC URL's path.
    const dump = JSON.stringify(tree.map((s) => [s.name, s.attributes, s.events]));
    expect(dump).not.toContain(brand.token);
    expect(dump).not.toContain((env().TREASURY_PRIVATE_KEY as string).slice(2));
    expect(dump).not.toContain("Bearer");
  });

  it("marks the span of a request that failed, with its status", async () => {
    const { brand } = await parties();
    exporter.reset();
    const res = await call(settleRoute.POST, {
      path: "/api/settle",
      token: brand.token,
      body: { milestoneId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(res.status).toBe(404);
    const root = exporter.getFinishedSpans().find((s) => s.name === "POST /api/settle");
    expect(root?.attributes["http.response.status_code"]).toBe(404);
  });
});
