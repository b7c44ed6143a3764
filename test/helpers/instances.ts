import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

// Several `next start` processes of one production build, as a serverless host runs many
// instances of one deployment: the build is made once (into its own dist dir, beside the .next
// the e2e suite builds into), each instance is a child process on a free port, and a tiny
// round-robin proxy (plain node:http) spreads requests over the live ones.

const ROOT = path.resolve(import.meta.dirname, "../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** Every child started here and still running: killed when this process exits, whatever failed. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function track<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** The environment of a child: this process's plus `vars` (undefined removes a variable). */
function childEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  // The test runner's own markers would make the app think it runs under vitest.
  for (const k of Object.keys(out)) if (k.startsWith("VITEST") || k === "TEST") delete out[k];
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * Runs a child to its end; resolves with its exit code and its output (stdout + stderr). After
 * `limitMs` it is killed (code null): a server that should have refused to start is not left
 * running when it did start.
 */
function runToEnd(
  argv: string[],
  vars: Record<string, string | undefined>,
  limitMs?: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, argv, { cwd: ROOT, env: childEnv(vars) }));
    const limit = limitMs ? setTimeout(() => child.kill("SIGKILL"), limitMs) : undefined;
    child.on("exit", () => clearTimeout(limit));
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/**
 * `next build` with `vars` (NEXT_DIST_DIR among them). Next rewrites next-env.d.ts to point at
 * the dist dir it built: the file is put back as it was, so type checks of the project keep
 * reading .next's types.
 */
export async function nextBuild(
  vars: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  const nextEnv = path.join(ROOT, "next-env.d.ts");
  let saved: string | undefined;
  try {
    saved = readFileSync(nextEnv, "utf8");
  } catch {
    saved = undefined;
  }
  try {
    return await runToEnd([NEXT_BIN, "build"], { NODE_ENV: "production", ...vars });
  } finally {
    if (saved !== undefined) writeFileSync(nextEnv, saved);
  }
}

/** `next start` expected to refuse to start: its exit code and output. */
export function nextStartRefused(
  vars: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return runToEnd(
    [NEXT_BIN, "start", "-p", "0", "-H", "127.0.0.1"],
    { NODE_ENV: "production", ...vars },
    60_000,
  );
}

/** A port nothing listens on now (for an APP_URL known before the instance starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export type Instance = {
  name: string;
  url: string;
  port: number;
  /** The process id of the running `next start` (its server may run in a child of it). */
  pid(): number | undefined;
  /** Everything it printed (for failure messages). */
  output(): string;
  /** SIGKILL, as a host ends an instance: nothing runs after it. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after kill), and waits until it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** Waits until `url` answers 200, or the child has exited (then throws with its output). */
async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * One `next start` of the build in `vars.NEXT_DIST_DIR`, ready (GET /api/health is 200), on
 * `opts.port` or a free one.
 */
export async function startInstance(
  name: string,
  vars: Record<string, string | undefined>,
  opts: { port?: number } = {},
): Promise<Instance> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  let child: ChildProcess;
  const launch = async () => {
    child = track(
      spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
        cwd: ROOT,
        env: childEnv({ NODE_ENV: "production", ...vars, PORT: String(port) }),
      }),
    );
    child.stdout?.on("data", (d) => {
      log += d;
    });
    child.stderr?.on("data", (d) => {
      log += d;
    });
    await waitReady(`${url}/api/health`, child, () => log);
  };
  const exited = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
  await launch();
  return {
    name,
    url,
    port,
    pid: () => child.pid,
    output: () => log,
    kill: async () => {
      const gone = exited();
      child.kill("SIGKILL");
      await gone;
    },
    restart: launch,
    stop: async () => {
      const gone = exited();
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

export type RoundRobin = {
  url: string;
  /** Requests answered by each upstream, by instance name. */
  served: Map<string, number>;
  close(): Promise<void>;
};

/**
 * A round-robin reverse proxy over `instances`: each request goes to the next one; an instance
 * that refuses the connection (killed, not started again yet) is skipped, which is safe because
 * nothing reached it. A request an instance dies in the middle of answers 502.
 */
export async function roundRobin(instances: Instance[], port = 0): Promise<RoundRobin> {
  let next = 0;
  const served = new Map(instances.map((i) => [i.name, 0]));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const target = instances[next++ % instances.length] as Instance;
        const up = httpRequest(
          {
            host: "127.0.0.1",
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, "content-length": String(body.length) },
          },
          (answer) => {
            served.set(target.name, (served.get(target.name) ?? 0) + 1);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on("error", () => res.destroy());
          },
        );
        up.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code === "ECONNREFUSED" && tries < instances.length) attempt(tries + 1);
          else if (!res.headersSent) res.writeHead(502).end(`upstream ${target.name}: ${err.code}`);
          else res.destroy();
        });
        up.end(body);
      };
      attempt(1);
    });
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
