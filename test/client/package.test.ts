import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// The typed client as an integrator gets it (issue 26, item 8): `npm pack` in
// packages/client (its prepack builds dist/ with tsc), the tarball installed with npm into a
// fresh project outside this repository, and a consumer that imports it by name,
// type-checks under strict NodeNext (including calls the types must refuse) and runs.

const root = path.resolve(import.meta.dirname, "../..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const scratch = mkdtempSync(path.join(tmpdir(), "milestone-client-"));
const run = promisify(execFile);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const consumer = `import { ApiError, createClient, type Deal } from "@milestone/client";

const sent: { method: string; url: string; body: string | null }[] = [];
const api = createClient({
  baseUrl: "https://milestone.example",
  apiKey: "mk_test",
  fetch: async (input, init) => {
    const req = new Request(input, init);
    sent.push({ method: req.method, url: req.url, body: req.body ? await req.text() : null });
    if (req.url.endsWith("/missing"))
      return Response.json({ error: { code: "not_found", message: "No deal" } }, { status: 404 });
    return Response.json({ deals: [], nextCursor: null });
  },
});

const page = await api.call("GET", "/api/deals", { query: { limit: 5 } });
const deals: Deal[] = page.deals;
await api.call("POST", "/api/deals/{id}/accept", { path: { id: "d-1" }, body: {} });
const failed = await api
  .call("GET", "/api/deals/{id}", { path: { id: "missing" } })
  .catch((e: unknown) => e);

if (Math.random() > 2) {
  // @ts-expect-error no such path
  await api.call("GET", "/api/nothing");
  // @ts-expect-error the path parameter is required
  await api.call("GET", "/api/deals/{id}");
  // @ts-expect-error a deal needs a title
  await api.createDeal({ milestones: [] });
}

console.log(
  JSON.stringify({
    deals: deals.length,
    sent,
    error: failed instanceof ApiError ? { status: failed.status, code: failed.code } : null,
  }),
);
`;

describe("@milestone/client as a package", () => {
  it("packs, installs from the tarball, type-checks and runs in a project of its own", async () => {
    await run("npm", ["pack", "--pack-destination", scratch, "--silent"], {
      cwd: path.join(root, "packages/client"),
    });
    const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
    expect(tarball).toMatch(/^milestone-client-\d+\.\d+\.\d+\.tgz$/);

    const project = path.join(scratch, "consumer");
    mkdirSync(project);
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    await run(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", path.join(scratch, tarball as string)],
      { cwd: project },
    );
    writeFileSync(path.join(project, "index.ts"), consumer);
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          types: [],
          outDir: "out",
        },
        files: ["index.ts"],
      }),
    );
    const checked = await run(process.execPath, [tsc, "-p", project], { cwd: project }).then(
      () => "",
      (e: { stdout?: string }) => e.stdout ?? String(e),
    );
    expect(checked).toBe("");

    const { stdout } = await run(process.execPath, [path.join(project, "out/index.js")], {
      cwd: project,
    });
    expect(JSON.parse(stdout)).toEqual({
      deals: 0,
      sent: [
        { method: "GET", url: "https://milestone.example/api/deals?limit=5", body: null },
        {
          method: "POST",
          url: "https://milestone.example/api/deals/d-1/accept",
          body: "{}",
        },
        { method: "GET", url: "https://milestone.example/api/deals/missing", body: null },
      ],
      error: { status: 404, code: "not_found" },
    });
  }, 180_000);
});
