import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockFileOf } from "@/db/data-dir-lock";

// One process per embedded data directory, tested with real processes. Before, a second
// process (npm run reconcile beside the running app) opened its own copy of the PGlite
// files and paid a milestone the app's copy did not know was paid.

let dir: string;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "milestone-lock-"));
  dir = path.join(dataDir, "pglite");
});

afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of a process using the embedded database in `dir`. */
function embeddedEnv(): NodeJS.ProcessEnv {
  const vars: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR: dir, DATA_DIR: dataDir };
  delete vars.DATABASE_URL;
  delete vars.CRON_SECRET;
  return vars;
}

function run(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    env: embeddedEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (l) => l === "ready" && resolve());
    void exited.then((code) => reject(new Error(`exited (${code}) before ready: ${stderr}`)));
  });
  ready.catch(() => {}); // awaited only for processes expected to get ready
  return {
    child,
    ready,
    exited,
    output: () => ({ stdout, stderr }),
  };
}

describe("the embedded database's data directory", () => {
  it("is refused to a second process while the first holds it, with a clear message", {
    timeout: 120_000,
  }, async () => {
    const holder = run(["test/helpers/hold-db.ts"]);
    await holder.ready;
    expect(existsSync(lockFileOf(dir))).toBe(true);

    const second = run(["scripts/reconcile.ts"]);
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toContain("in use by another process");
    expect(second.output().stderr).toContain(`pid ${holder.child.pid}`);

    holder.child.stdin?.end();
    expect(await holder.exited).toBe(0);
    expect(existsSync(lockFileOf(dir))).toBe(false); // released on close
  });

  it("is taken over from a process that died holding it", { timeout: 120_000 }, async () => {
    const holder = run(["test/helpers/hold-db.ts"]);
    await holder.ready;
    holder.child.kill("SIGKILL");
    await holder.exited;
    expect(existsSync(lockFileOf(dir))).toBe(true); // left behind by the crash

    const reconcile = run(["scripts/reconcile.ts"]);
    expect(await reconcile.exited).toBe(0);
    expect(JSON.parse(reconcile.output().stdout).settlements).toBeDefined();
  });

  describe("while the app holds it", () => {
    let server: Server;
    const seen: Array<{ url: string; authorization?: string }> = [];
    beforeAll(async () => {
      // Stands in for the running app's cron route (the route itself is tested elsewhere).
      server = createServer((req, res) => {
        seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ settlements: { confirmed: 1 }, via: "app" }));
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it("npm run reconcile asks the app instead of opening the files", {
      timeout: 120_000,
    }, async () => {
      const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const app = run(["test/helpers/hold-db.ts", appUrl]);
      await app.ready;

      const reconcile = run(["scripts/reconcile.ts"]);
      expect(await reconcile.exited).toBe(0);
      expect(JSON.parse(reconcile.output().stdout)).toEqual({
        settlements: { confirmed: 1 },
        via: "app",
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.url).toBe("/api/cron/reconcile");
      // The embedded cron secret both processes read from DATA_DIR.
      expect(seen[0]?.authorization).toMatch(/^Bearer [0-9a-f]{64}$/);
      app.child.stdin?.end();
      await app.exited;
    });
  });
});
