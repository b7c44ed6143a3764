// npm run bench (cold start) — how long a freshly spawned production server takes to answer its
// first request, against a bare node:http server spawned the same way, in the same run.
//
//   /api/health   spawn of `next start` to the first 200 of GET /api/health (config, proxy,
//                 instrumentation, the route, a database and a chain round trip)
//   /icon.svg     spawn to the first 200 of a static asset (no app code of its own)
//   empty app     the same for the empty Next app page-weight builds (.data/bench-empty-app,
//                 built first when missing): what Next itself costs on this machine
// Each figure is a fresh process (BENCH_COLD_REPS, default 5, times; the median), polled every
// 10 ms from the moment of the spawn. The servers run the production build in .next (built
// first when missing or older than the sources, as page-weight does) on a fresh database of
// BENCH_DATABASE_URL (else the local PostgreSQL server) and a throwaway anvil. `--no-build`
// measures whatever .next holds.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "../test/helpers/instances";
import { ensureBuild, ensureEmptyApp } from "./page-weight";
import { benchEnvironment, median, postgresServer, printRows, type Row } from "./setup";

const REPS = Number(process.env.BENCH_COLD_REPS ?? 5);
const ROOT = path.resolve(import.meta.dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const BARE_SERVER =
  "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')";

/** Milliseconds from spawning `argv` (on a free PORT) to the first 200 of `urlPath`. */
async function coldStart(
  argv: string[],
  urlPath: string,
  vars: Record<string, string | undefined>,
  cwd = ROOT,
): Promise<number> {
  const port = await freePort();
  let log = "";
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    argv.map((a) => a.replace("$PORT", String(port))),
    { cwd, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...vars, PORT: String(port) } },
  );
  child.stdout?.on("data", (d) => {
    log += d;
  });
  child.stderr?.on("data", (d) => {
    log += d;
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}):\n${log}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${urlPath}`);
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - started;
        if (performance.now() - started > 60_000)
          throw new Error(`${urlPath} answered ${res.status}:\n${log}`);
      } catch (err) {
        if (performance.now() - started > 60_000) throw err;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    // (A child that exited already sends no more "exit": waiting for it hung the bench.)
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await gone;
    }
  }
}

async function main() {
  ensureBuild(process.argv.includes("--no-build") ? "never" : "auto");
  const empty = ensureEmptyApp();
  // The database migrated here, so that no instance's first request pays for the migrations.
  const bench = await benchEnvironment({ postgres: postgresServer() });
  const dataDir = mkdtempSync(path.join(tmpdir(), "milestone-cold-"));
  // The chain and database settings benchEnvironment put in this process's environment reach
  // each child with it; the rest is what a deployment must have.
  const vars: Record<string, string | undefined> = {
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DEV_IDP_ENABLED: "1",
    AUTH_SECRET: randomBytes(24).toString("hex"),
    CRON_SECRET: randomBytes(24).toString("hex"),
    STORAGE_LOCAL_IN_PRODUCTION: "1",
  };
  const next = [NEXT_BIN, "start", "-p", "$PORT", "-H", "127.0.0.1"];
  try {
    // One throwaway start first: the disk cache then holds the build for every measured one.
    await coldStart(next, "/icon.svg", vars);
    // Interleaved, one of each per round, so that a change in the machine's load hits all alike.
    const xs = {
      bare: [] as number[],
      health: [] as number[],
      icon: [] as number[],
      empty: [] as number[],
    };
    for (let i = 0; i < REPS; i++) {
      xs.bare.push(await coldStart(["-e", BARE_SERVER], "/", {}));
      xs.health.push(await coldStart(next, "/api/health", vars));
      xs.icon.push(await coldStart(next, "/icon.svg", vars));
      xs.empty.push(await coldStart(next, "/", { NODE_ENV: "production" }, empty));
    }
    const [bare, health, icon, emptyApp] = [
      median(xs.bare),
      median(xs.health),
      median(xs.icon),
      median(xs.empty),
    ];
    const rows: Row[] = [
      ["spawn → first 200, GET /api/health vs bare node:http", bare, health, "ms"],
      ["spawn → first 200, GET /icon.svg vs bare node:http", bare, icon, "ms"],
      ["spawn → first 200, empty Next app's page vs bare node:http", bare, emptyApp, "ms"],
      ["spawn → first 200, GET /icon.svg vs the empty Next app", emptyApp, icon, "ms"],
      ["spawn → first 200, GET /api/health vs the empty Next app", emptyApp, health, "ms"],
    ];
    printRows(
      `Cold start — production build, ${REPS} fresh processes per figure, median; PostgreSQL`,
      rows,
    );
  } finally {
    await bench.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
