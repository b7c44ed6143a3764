// npm run openapi -- [--out FILE] [--server URL] [--types]
//
// Writes the API reference exactly as the app serves it at /api/openapi.json (the route
// modules' declared scopes included), without starting a server: the document for tools
// (`npm run lint:openapi`, openapi-typescript). --server sets the document's server URL
// (default: APP_URL, as the app would serve it); without --out it goes to stdout.
// --types writes the typed client's types instead (scripts/openapi-types.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";

// Server modules say so with `import "server-only"`, which only Next's bundler resolves (to
// an empty module on the server): resolve it the same way here, as vitest.config.ts does.
const empty = new URL("../node_modules/next/dist/compiled/server-only/empty.js", import.meta.url);
register(
  `data:text/javascript,${encodeURIComponent(
    `export async function resolve(s, c, next) { return s === "server-only" ? { url: ${JSON.stringify(empty.href)}, shortCircuit: true } : next(s, c); }`,
  )}`,
);

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    server: { type: "string" },
    types: { type: "boolean" },
  },
});
const { reference } = await import("@/app/api/reference");
const { appUrl } = await import("@/lib/env");
const { openApiDocument } = await import("@/lib/openapi");
const document = openApiDocument(values.server ?? appUrl(), reference);

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}

if (values.types) {
  const { OPENAPI_TYPES_FILE, renderOpenApiTypes } = await import("./openapi-types");
  write(values.out ?? OPENAPI_TYPES_FILE, await renderOpenApiTypes(document));
} else {
  const json = `${JSON.stringify(document, null, 2)}\n`;
  if (values.out) write(values.out, json);
  else process.stdout.write(json);
}
