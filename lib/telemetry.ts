import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { currentRequestId } from "@/lib/request-id";

// OpenTelemetry spans on the paths that matter (a request, each database transaction, each
// JSON-RPC call, each outbound fetch). Off by default: with no tracer provider registered
// the API hands out no-op spans, which cost next to nothing. instrumentation.ts registers one
// that exports over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/telemetry-node.ts);
// tests register one that keeps the spans in memory.
//
// Every span carries the request's id (`milestone.request_id`, the Request-Id header and the
// logs' requestId) and never a secret: no headers, bodies, query strings or URL paths (a
// webhook or RPC URL may carry a key in its path), only methods, hosts and route templates.

const TRACER_NAME = "milestone";

export const REQUEST_ID_ATTRIBUTE = "milestone.request_id";

/**
 * Runs `fn` inside a new span, a child of the active one; records a thrown error on it and
 * ends it either way.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const requestId = currentRequestId();
  return trace
    .getTracer(TRACER_NAME)
    .startActiveSpan(
      name,
      { attributes: requestId ? { ...attributes, [REQUEST_ID_ATTRIBUTE]: requestId } : attributes },
      async (span) => {
        try {
          return await fn(span);
        } catch (err) {
          span.recordException(err instanceof Error ? err : String(err));
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: err instanceof Error ? err.name : "error",
          });
          throw err;
        } finally {
          span.end();
        }
      },
    );
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A request path as a route template: ids become `{id}` (no personal data, few names). */
export const routeTemplate = (pathname: string): string => pathname.replace(UUID, "{id}");

/** The method of a JSON-RPC request body (`batch` for several), for an RPC span's name. */
export function rpcMethodOf(body: unknown): string {
  if (typeof body !== "string") return "unknown";
  try {
    const parsed = JSON.parse(body) as { method?: unknown } | Array<unknown>;
    if (Array.isArray(parsed)) return "batch";
    return typeof parsed.method === "string" ? parsed.method : "unknown";
  } catch {
    return "unknown";
  }
}
