import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { type Env, env } from "@/lib/env";

// Registers the process's tracer provider (instrumentation.ts, at server start) when traces
// have somewhere to go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, an OTLP/HTTP collector (Honeycomb,
// Grafana, Datadog's and Jaeger's OTLP intakes...). Spans leave in batches, off the request
// path. Next's own spans (the request, rendering) join the same traces, under which ours nest.

/** True when a provider was registered. */
export function registerTracing(e: Env = env()): boolean {
  if (!e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": e.OTEL_SERVICE_NAME }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT })),
    ],
  });
  provider.register();
  return true;
}
