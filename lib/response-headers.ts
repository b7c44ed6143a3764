// Headers something decided while handling a request (e.g. the caller's RateLimit-* state,
// found during authentication) that the response must carry. Keyed by the Request object,
// so nothing outlives the request; lib/http.ts's route() copies them onto the response.

const pending = new WeakMap<Request, Record<string, string>>();

export function addResponseHeaders(req: Request, headers: Record<string, string>): void {
  pending.set(req, { ...pending.get(req), ...headers });
}

/** The response with the request's pending headers set (those it does not set itself). */
export function withResponseHeaders(req: Request, res: Response): Response {
  const headers = pending.get(req);
  if (!headers) return res;
  try {
    for (const [name, value] of Object.entries(headers))
      if (!res.headers.has(name)) res.headers.set(name, value);
    return res;
  } catch {
    // Immutable headers (a fetched or redirect response): copy into a new response.
    const copy = new Response(res.body, res);
    for (const [name, value] of Object.entries(headers))
      if (!copy.headers.has(name)) copy.headers.set(name, value);
    return copy;
  }
}
