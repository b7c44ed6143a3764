import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

// A fetch that answers from the app's own route handlers, in this process: the URL's path
// is resolved the way Next resolves app/api/**/route.ts (a literal folder first, else a
// [param] folder), and the exported method is called with the Request and its params.
// Lets the typed client (@milestone/client, packages/client) run against the real handlers in tests.

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response;

function resolveRoute(pathname: string): { file: string; params: Record<string, string> } | null {
  let dir = path.resolve("app");
  const params: Record<string, string> = {};
  for (const raw of pathname.split("/").filter(Boolean)) {
    const segment = decodeURIComponent(raw);
    if (existsSync(path.join(dir, segment))) {
      dir = path.join(dir, segment);
      continue;
    }
    const dynamic = readdirSync(dir).find((d) => /^\[\w+\]$/.test(d));
    if (!dynamic) return null;
    params[dynamic.slice(1, -1)] = segment;
    dir = path.join(dir, dynamic);
  }
  const file = path.join(dir, "route.ts");
  return existsSync(file) ? { file, params } : null;
}

export const inProcessFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const found = resolveRoute(new URL(req.url).pathname);
  if (!found)
    return Response.json({ error: { code: "not_found", message: "No route" } }, { status: 404 });
  const mod = (await import(found.file)) as Record<string, Handler | undefined>;
  const handler = mod[req.method.toUpperCase()];
  if (!handler) return new Response(null, { status: 405 });
  return handler(req, { params: Promise.resolve(found.params) });
};
