// Reading an answer of the Milestone API, shared by the browser's fetch helper
// (lib/client/api.ts) and the typed third-party client (lib/api/client.ts). No imports: it
// runs in the browser and in Node alike, and the typed client imports it by a relative path.

/** The contract's error envelope: `{ "error": { code, message, details?, requestId? } }`. */
export type ErrorBody = { code: string; message: string; details?: unknown; requestId?: string };

/** The answer's body as text, and parsed as JSON (undefined when empty or not JSON). */
export async function readBody(res: Response): Promise<{ text: string; json: unknown }> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { text, json };
}

/** The error envelope's `error` in a parsed body, or null when the body is not one. */
export function errorEnvelope(json: unknown): ErrorBody | null {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null | undefined)
    ?.error;
  return typeof error?.code === "string" && typeof error.message === "string"
    ? (error as ErrorBody)
    : null;
}
