// Calls a real route handler the way Next does: a Request plus a context whose params
// is a Promise. Returns the status, the parsed JSON body and the headers. A write sent
// with the session cookie carries the app's own Origin, as a browser's fetch does (the
// CSRF check in lib/auth/caller.ts needs it); `origin` overrides it, null omits it.

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response;

export type CallOptions = {
  method?: string;
  path?: string;
  body?: unknown;
  /** Sent as-is (for malformed-JSON tests). */
  rawBody?: string;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  /** The Origin header; default: this app's origin on cookie-authenticated writes. */
  origin?: string | null;
};

export const TEST_ORIGIN = "http://localhost";

export type CallResult<T = any> = { status: number; body: T; headers: Headers; response: Response };

export async function call<T = any>(
  handler: Handler,
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  const headers = new Headers(opts.headers);
  let payload: string | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined && !headers.has("content-type"))
    headers.set("content-type", "application/json");
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  const method = opts.method ?? (payload === undefined ? "GET" : "POST");
  const write = !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
  if (opts.origin) headers.set("origin", opts.origin);
  else if (opts.origin === undefined && opts.cookie && write && !headers.has("origin"))
    headers.set("origin", TEST_ORIGIN);
  const req = new Request(`${TEST_ORIGIN}${opts.path ?? "/"}`, {
    method,
    headers,
    body: payload,
  });
  const response = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON; keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers, response };
}
