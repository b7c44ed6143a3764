import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// Node-only: runs a local anvil node from the @foundry-rs/anvil-<platform>-<arch> npm package.

import { DEV_MNEMONIC } from "@/lib/chain/dev-accounts";

export { DEV_MNEMONIC, devAccount, devAccountKey } from "@/lib/chain/dev-accounts";

export interface StartAnvilOptions {
  /** 0 or undefined: anvil binds a free port and reports it. */
  port?: number;
  host?: string;
  /** Load state from this file if it exists and dump to it on exit (anvil --state). */
  stateFile?: string;
  /** Also dump state every N seconds, so a crash (SIGKILL) loses at most N seconds. */
  stateIntervalSeconds?: number;
  chainId?: number;
  /** Seconds between blocks; default is automine (a block per transaction). */
  blockTime?: number;
  /** The block gas limit (anvil --gas-limit); anvil's default is 30M. */
  gasLimit?: number;
  /**
   * The genesis block's number (anvil --number): a chain that starts with a long history
   * behind it, which anvil_mine cannot build quickly (it slows down as the chain grows).
   */
  genesisNumber?: number;
  /** When false, anvil's output is echoed to stderr with an "[anvil]" prefix. Default true. */
  silent?: boolean;
  /** How long to wait for the RPC to answer. Default 15s. */
  startTimeoutMs?: number;
}

export interface AnvilInstance {
  rpcUrl: string;
  port: number;
  pid: number;
  /** SIGTERM and wait for exit; anvil writes `stateFile` while shutting down. Idempotent. */
  stop(): Promise<void>;
}

const archNames: Partial<Record<string, string>> = { x64: "amd64", arm64: "arm64" };

/** Path of the anvil binary shipped by the platform package of @foundry-rs/anvil. */
export function anvilBinaryPath(): string {
  const arch = archNames[process.arch];
  if (!arch) throw new Error(`anvil: unsupported architecture ${process.arch}`);
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return createRequire(import.meta.url).resolve(`${pkg}/bin/${exe}`);
  } catch {
    throw new Error(`anvil: package ${pkg} is not installed (npm install @foundry-rs/anvil)`);
  }
}

/** True when something at rpcUrl answers eth_chainId. */
export async function rpcAnswers(rpcUrl: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { result?: unknown };
    return typeof body.result === "string";
  } catch {
    return false;
  }
}

// Children still running when this process exits are sent SIGTERM, so a crashed test run or
// dev server does not leave orphaned nodes holding ports.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  running.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const c of running) c.kill("SIGTERM");
    });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startAnvil(opts: StartAnvilOptions = {}): Promise<AnvilInstance> {
  const host = opts.host ?? "127.0.0.1";
  const args = [
    "--host",
    host,
    "--port",
    String(opts.port ?? 0),
    "--chain-id",
    String(opts.chainId ?? 31_337),
    "--mnemonic",
    DEV_MNEMONIC,
  ];
  if (opts.stateFile) {
    mkdirSync(path.dirname(path.resolve(opts.stateFile)), { recursive: true });
    args.push("--state", opts.stateFile);
    if (opts.stateIntervalSeconds) args.push("--state-interval", String(opts.stateIntervalSeconds));
  }
  if (opts.blockTime) args.push("--block-time", String(opts.blockTime));
  if (opts.gasLimit) args.push("--gas-limit", String(opts.gasLimit));
  if (opts.genesisNumber) args.push("--number", String(opts.genesisNumber));

  const child = spawn(anvilBinaryPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
  trackChild(child);

  // Keep the tail of anvil's output for error messages. Both pipes must be drained
  // continuously: anvil logs every RPC call and would block on a full pipe.
  let output = "";
  let listenPort: number | undefined;
  const onData = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output = (output + text).slice(-8_000);
    listenPort ??= parseListenPort(output);
    if (opts.silent === false) {
      for (const line of text.split("\n"))
        if (line.trim()) process.stderr.write(`[anvil] ${line}\n`);
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  let spawnError: Error | undefined;
  child.once("error", (err) => {
    spawnError = err;
    running.delete(child);
  });

  const stop = async () => {
    if (hasExited || spawnError) return;
    child.kill("SIGTERM");
    // Escalate if anvil hangs; the timer is cleared so it cannot keep the event loop alive.
    const escalate = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(escalate);
  };

  const fail = async (reason: string): Promise<never> => {
    await stop();
    throw new Error(`anvil failed to start: ${reason}\n--- anvil output ---\n${output.trim()}`);
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if (spawnError) return fail(spawnError.message);
    if (hasExited) return fail(`process exited with code ${await exited}`);
    // Wait for anvil's own "Listening on" line even when the port was given, so that another
    // node already answering on that port is not mistaken for this one.
    if (listenPort && child.pid !== undefined) {
      const rpcUrl = `http://${host}:${listenPort}`;
      if (await rpcAnswers(rpcUrl, 500)) return { rpcUrl, port: listenPort, pid: child.pid, stop };
    }
    await sleep(25);
  }
  return fail(`no eth_chainId answer within ${opts.startTimeoutMs ?? 15_000}ms`);
}

function parseListenPort(output: string): number | undefined {
  const match = /Listening on [^\s]*:(\d+)/.exec(output);
  return match?.[1] ? Number(match[1]) : undefined;
}
