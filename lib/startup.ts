import { assertProductionReady, env } from "@/lib/env";

// What a Node.js server does once when it starts (instrumentation.ts calls it on the Node.js
// runtime only, so the Edge compilation never sees process.exit): a production deployment with
// a missing or malformed setting stops here, naming the variable, instead of failing on the
// first request; then traces are set up when configured (lib/telemetry-node.ts).
// (Next 16's `next start` only logs an error thrown at start and then answers every request
// 500: the process exits instead, so a host sees an instance that did not start.)
export async function startNodeServer(): Promise<void> {
  try {
    env();
    assertProductionReady();
    // Traces, when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT says where to send them (the SDK is not
    // even loaded otherwise: a cold start pays nothing for it).
    if (env().OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
      (await import("@/lib/telemetry-node")).registerTracing();
  } catch (err) {
    console.error(`[milestone] not starting: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
