import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { reference, referenceExamples, routeModules } from "@/app/api/reference";
import { TYPESCRIPT_SETUP } from "@/lib/api/examples";
import { routeSchemas } from "@/lib/http";

// /docs's examples (issue 26, item 8) are generated from the reference, for every endpoint,
// and each is checked against the code: the request ("Try it" pre-fills it, curl and the
// TypeScript call send it) parses with the route's own zod schemas — body, query and path —;
// the example answer parses with the documented response schema; and every TypeScript example
// type-checks against the typed client.

const baseUrl = "https://milestone.example";
const examples = referenceExamples(baseUrl);
const root = path.resolve(import.meta.dirname, "../..");
const scratch = path.join(root, ".data", `docs-examples-${process.pid}-${Date.now()}`);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const issues = (r: { success: boolean; error?: { issues: unknown[] } }) =>
  r.success ? "" : JSON.stringify(r.error?.issues);

describe("the examples on /docs", () => {
  it("exist for every endpoint", () => {
    expect(examples.size).toBe(reference.length);
    for (const e of reference) {
      const ex = examples.get(`${e.method} ${e.path}`);
      expect(ex?.curl, `${e.method} ${e.path}`).toContain(`${baseUrl}/api/`);
      expect(ex?.typescript).toContain(`.call("${e.method}", "${e.path}"`);
    }
  });

  it("send a request each route's own zod schemas accept (the one Try it pre-fills)", () => {
    const refused: string[] = [];
    for (const e of reference) {
      const key = `${e.method} ${e.path}`;
      const { request, curl } = examples.get(key) as NonNullable<ReturnType<typeof examples.get>>;
      const schemas = routeSchemas(routeModules[e.path]?.[e.method]);
      // app/api/reference.ts lists every route module but the one serving the reference
      if (e.path !== "/api/openapi.json") expect(schemas, key).toBeDefined();
      // A route that reads its body itself (JSON or a multipart form) validates it with the
      // schema the reference documents.
      const bodySchema = schemas?.body ?? e.body;
      if (bodySchema) {
        const parsed = bodySchema.safeParse(request.body);
        if (!parsed.success)
          refused.push(`${key} body ${JSON.stringify(request.body)} ${issues(parsed)}`);
        // curl sends that same body
        if (request.body !== undefined)
          expect(curl, key).toContain(JSON.stringify(request.body).replace(/'/g, "'\\''"));
      } else expect(request.body, `${key}: a body the route does not read`).toBeUndefined();
      const query = Object.fromEntries(
        Object.entries(request.query).map(([k, v]) => [k, String(v)]),
      );
      if (schemas?.query) {
        const parsed = schemas.query.safeParse(query);
        if (!parsed.success)
          refused.push(`${key} query ${JSON.stringify(query)} ${issues(parsed)}`);
      } else expect(query, key).toEqual({});
      if (schemas?.params) {
        const parsed = schemas.params.safeParse(request.params);
        if (!parsed.success) refused.push(`${key} path ${issues(parsed)}`);
      }
      expect(request.path, key).not.toMatch(/[{}]/);
    }
    expect(refused).toEqual([]);
  });

  it("show an answer the documented response schema accepts", () => {
    for (const e of reference) {
      const key = `${e.method} ${e.path}`;
      const { response } = examples.get(key) as NonNullable<ReturnType<typeof examples.get>>;
      if (e.responseSchema === null) expect(response, key).toBeNull();
      else {
        const parsed = e.responseSchema.safeParse(response);
        expect(parsed.success, `${key} ${issues(parsed)}`).toBe(true);
      }
    }
  });

  it("TypeScript examples type-check against the typed client", async () => {
    mkdirSync(scratch, { recursive: true });
    const calls = reference.map(
      (e, i) =>
        `async function example${i}() {\n  ${(examples.get(`${e.method} ${e.path}`)?.typescript ?? "").replace(/\n/g, "\n  ")}\n  return answer;\n}`,
    );
    writeFileSync(
      path.join(scratch, "examples.ts"),
      `${TYPESCRIPT_SETUP}\n\n${calls.join("\n\n")}\n\nexport const all = [${reference.map((_, i) => `example${i}`).join(", ")}];\n`,
    );
    writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        compilerOptions: { incremental: false, noEmit: true },
        include: ["examples.ts"],
        exclude: [],
      }),
    );
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const result = await promisify(execFile)(process.execPath, [tsc, "-p", scratch], {
      cwd: root,
      maxBuffer: 16 << 20,
    }).then(
      () => "",
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(result).toBe("");
  }, 180_000);
});
