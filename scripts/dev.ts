// npm run dev — the whole app on embedded defaults.
//
// On the local chain: reuses whatever answers at RPC_URL, or starts anvil (state kept
// under DATA_DIR so the database and the chain agree after a restart), deploys the
// contracts once, funds the treasury, then runs `next dev` and stops anvil on exit.
//   --prod         build and `next start` instead of `next dev` (used by the e2e suite)
//   --fresh        wipe DATA_DIR first
//   --rpc-port N   start anvil on port N (0 = any free port) instead of RPC_URL's
//   --reconcile-every S   under `next dev`, run reconcile through the app every S seconds
//                  (default 15; 0 = never): notifications, e-mail, webhooks, review-window
//                  and overdue timers and unfinished payments then move on their own, as
//                  the cron route makes them move in production
//
// While the dev identity provider is on (always under `next dev`; under --prod only with
// DEV_IDP_ENABLED), it also runs the embedded OpenID provider (lib/auth/dev-oidc-provider.ts)
// at DEV_IDP_URL (default: APP_URL's host on PORT + 1), in this process.
//
// Stopping it by any signal it can catch (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT), or a crash,
// stops everything it started: the build, next (with the worker processes it forks) and
// anvil. A SIGKILL cannot be caught: killing the whole process group (as Playwright does)
// still reaches every child, which all stay in this process's group.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { privateKeyToAccount } from "viem/accounts";
import { startDevOidcProvider } from "@/lib/auth/dev-oidc-provider";
import { devAccountKey, rpcAnswers, startAnvil } from "@/lib/chain/anvil";
import { chainByName } from "@/lib/chain/chains";
import { localDeploymentFile } from "@/lib/chain/config";
import { ensureLocalDeployment } from "@/lib/chain/deploy";
import { cronSecret } from "@/lib/cron";
import { childEnv, dataDir, devIdpEnabled, env } from "@/lib/env";

const { values: args } = parseArgs({
  options: {
    prod: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    "rpc-port": { type: "string" },
    "reconcile-every": { type: "string", default: "15" },
  },
});

const cleanups: Array<() => Promise<void>> = [];
let stopping = false;

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of cleanups.reverse()) await c().catch((e) => console.error(e));
  process.exit(code);
}

function waitExit(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
}

/** Every process below `pid` (children, grandchildren…), from `ps`; empty where ps fails. */
function descendants(pid: number): number[] {
  let table: string;
  try {
    table = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of table.trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (child === undefined || parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const c of children.get(queue.shift() as number) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/**
 * Stops a child and everything it started: SIGTERM to the child (next forwards it to its
 * workers), then after `graceMs` SIGKILL to whatever of that tree is still running.
 */
async function stopTree(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const tree = descendants(child.pid);
  child.kill("SIGTERM");
  const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
  await Promise.race([waitExit(child), timer]);
  for (const pid of [child.pid, ...tree]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A child process that shutdown() stops (with its own children) whatever ends this one. */
function run(cmd: string, argv: string[], overrides: Record<string, string | undefined>) {
  const child = spawn(cmd, argv, { stdio: "inherit", env: childEnv(overrides) });
  cleanups.push(() => stopTree(child));
  return child;
}

async function localChain(): Promise<Record<string, string>> {
  const e = env();
  const dir = dataDir(e);
  const configured = new URL(e.RPC_URL ?? chainByName("local").defaultRpcUrl);
  let rpcUrl = configured.toString().replace(/\/$/, "");
  const wantPort = args["rpc-port"];
  if (wantPort !== undefined || !(await rpcAnswers(rpcUrl))) {
    const anvil = await startAnvil({
      port: wantPort !== undefined ? Number(wantPort) : Number(configured.port || 8545),
      stateFile: path.join(dir, "anvil-state.json"),
      silent: true,
    });
    rpcUrl = anvil.rpcUrl;
    cleanups.push(() => anvil.stop());
    console.log(`[dev] anvil started at ${rpcUrl} (state: ${path.join(dir, "anvil-state.json")})`);
  } else {
    console.log(`[dev] using the chain already answering at ${rpcUrl}`);
  }
  const deployerKey = devAccountKey(0);
  const deployment = await ensureLocalDeployment({
    rpcUrl,
    deploymentFile: localDeploymentFile(dir),
    deployerKey,
    attestor: privateKeyToAccount(deployerKey).address,
  });
  console.log(
    `[dev] USDC ${deployment.usdc} · ReputationRegistry ${deployment.registry} · MilestoneEscrow ${deployment.escrow}`,
  );
  return {
    RPC_URL: rpcUrl,
    USDC_ADDRESS: deployment.usdc,
    REPUTATION_REGISTRY_ADDRESS: deployment.registry,
    ESCROW_ADDRESS: deployment.escrow,
    DEPOSIT_FACTORY_ADDRESS: deployment.depositFactory,
  };
}

/**
 * Development's stand-in for the production cron: every `seconds`, `GET /api/cron/reconcile`
 * on the running app with the embedded cron secret (the app holds the embedded database, so
 * reconcile must run inside it). One call at a time; a call before next is up just fails.
 */
function scheduleReconcile(appUrl: string, seconds: number) {
  if (!(seconds > 0)) return;
  let running = false;
  const timer = setInterval(async () => {
    const secret = cronSecret();
    if (running || stopping || !secret) return;
    running = true;
    try {
      const res = await fetch(new URL("/api/cron/reconcile", appUrl), {
        headers: { authorization: `Bearer ${secret}` },
        signal: AbortSignal.timeout(120_000),
      });
      if (!res.ok) console.warn(`[dev] scheduled reconcile: the app answered ${res.status}`);
    } catch {
      // next is not listening yet, or is restarting: the next tick tries again.
    } finally {
      running = false;
    }
  }, seconds * 1000);
  timer.unref();
  cleanups.push(async () => clearInterval(timer));
}

async function main() {
  const e = env();
  const dir = dataDir(e);
  // Which Node runs the app: the packaged Node 22 (node_modules/.bin/node) under npm run / npx.
  console.log(`[dev] node ${process.version} (${process.execPath})`);
  if (args.fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const)
    process.on(signal, () => void shutdown(0));
  process.on("uncaughtException", (err) => {
    console.error(err);
    void shutdown(1);
  });

  const chainEnv = e.CHAIN === "local" ? await localChain() : {};
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const port = String(e.PORT);
  const childVars = { ...chainEnv, DATA_DIR: dir, PORT: port };
  // The child's view: `next start` runs in production, `next dev` does not.
  if (devIdpEnabled({ ...e, NODE_ENV: args.prod ? "production" : "development" })) {
    const idp = await startDevOidcProvider({ e: { ...e, DATA_DIR: dir } });
    cleanups.push(() => idp.close());
    console.log(`[dev] OpenID provider (demo sign-in) at ${idp.issuer}`);
  }

  if (args.prod) {
    const build = run(process.execPath, [nextBin, "build"], childVars);
    const code = await waitExit(build);
    if (code !== 0) return shutdown(code);
  }
  const next = run(
    process.execPath,
    args.prod ? [nextBin, "start", "-p", port, "-H", "127.0.0.1"] : [nextBin, "dev", "-p", port],
    childVars,
  );
  if (!args.prod) scheduleReconcile(`http://127.0.0.1:${port}`, Number(args["reconcile-every"]));
  const code = await waitExit(next);
  await shutdown(code);
}

main().catch(async (err) => {
  console.error(`[dev] ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
