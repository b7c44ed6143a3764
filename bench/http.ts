// npm run bench -- http | blocktime | instances (or npx tsx bench/http.ts [section …]) —
// settlement throughput over HTTP, as callers see it: a production build (`next build` once into .data/next-bench, reused while it is newer
// than the sources) started with `next start` on a fresh PostgreSQL database and a fresh anvil,
// real POST /api/settle requests, against raw single ERC-20 transfers from one account (viem's
// nonce manager, each waiting for its receipt as the server does) at the same concurrency, in
// the same run.
//
//   http       automine; concurrency 1, 20 (3 rounds) and 100 (2 rounds), raw transfers and
//              settles taking turns: settles/s, p50/p95, ratio to raw, and the CPU
//              per settle of next-server (its process tree, /proc/<pid>/stat utime+stime),
//              of the PostgreSQL backends serving it and of anvil; and for scale, what a bare
//              authenticated request (GET /api/auth/me) costs next-server at c=20
//   blocktime  the same on anvil --block-time 2 (the fixtures are made in automine, then
//              evm_setIntervalMining 2 as --block-time sets it), single settles, and bulk
//              settles (POST /api/settle with milestoneIds: 20, 100 and 5 × 100 milestones in
//              flight) when the server accepts them
//   drift      why the raw baseline moves: raw transfers' CPU on anvil before and after the
//              bench's deals (anvil's cost per block grows with the state it holds)
//   instances  one `next start` against three behind the round-robin proxy of the
//              multi-instance test (test/helpers/instances.ts), same database, same chain:
//              settles/s, p95, each instance's database connections (pg_stat_activity by
//              application_name), sessions waiting on a lock, and the machine's CPU
//
// Every section ends by running reconcile (the cron route) and checking that each milestone was
// paid exactly once: Released events on the escrow against settled milestones and confirmed
// settlement rows, and the creator's USDC balance. Needs PostgreSQL: BENCH_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/test. The machine's load average is printed beside each
// figure (other work on the machine moves them).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  type Instance,
  nextBuild,
  type RoundRobin,
  roundRobin,
  startInstance,
} from "../test/helpers/instances";
import { startRpcProxy } from "../test/helpers/rpc-proxy";
import { buildIsCurrent } from "./page-weight";
import { startPgCounter } from "./pg-count";
import {
  type BenchEnv,
  benchEnvironment,
  benchMilestones,
  median,
  type PoolResult,
  percentile,
  pool,
  postgresServer,
  printRows,
  type Row,
  rawSender,
} from "./setup";

/** The build's directory (relative to the project, as next.config's distDir wants it). */
const DIST_DIR = ".data/next-bench";
const DIST_PATH = path.resolve(import.meta.dirname, "..", DIST_DIR);
const TICK_MS = 1000 / (Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString()) || 100);

// ---- processes' CPU -----------------------------------------------------------------------

/** [ppid, utime + stime in ms] of a process, or null when it is gone. */
function procStat(pid: number): [number, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "pid (comm) ": state ppid … utime (14th field) stime (15th).
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [Number(f[1]), (Number(f[11]) + Number(f[12])) * TICK_MS];
  } catch {
    return null;
  }
}

/** A process and all its descendants (next start runs its server in a child on some versions). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    if (s) children.set(s[0], [...(children.get(s[0]) ?? []), Number(name)]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i] as number) ?? []));
  return out;
}

/** CPU ms used so far by each of these processes. */
function cpuOf(pids: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const s = procStat(pid);
    if (s) out.set(pid, s[1]);
  }
  return out;
}

/** CPU ms used between two readings (a process first seen in `after` counts whole). */
function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

/** The machine's busy and total CPU time so far (from /proc/stat), ms. */
function machineCpu(): { busy: number; total: number } {
  const f = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
}

const load = () => `load ${os.loadavg()[0]?.toFixed(2)}`;
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "–");

// ---- what the instances logged --------------------------------------------------------------

/** Where each instance's output stands now (serverLog reads what comes after). */
const logMarks = (w: World) => w.instances.map((i) => i.output().length);

/** How many distinct lines serverLog prints, and how long each may be. */
const LOG_LINES = 8;
const LOG_WIDTH = 400;

/**
 * The warn and error lines the instances logged since `marks` (lib/log.ts writes one JSON
 * object a line; anything else Next printed is shown as `output:`), each distinct one once:
 * its count, level, message and error (name, message, and for an error-level line the first
 * frames of its stack, where it was thrown), most frequent first, at most LOG_LINES.
 */
function serverLog(w: World, marks: number[]): string[] {
  const seen = new Map<string, number>();
  for (const [k, instance] of w.instances.entries()) {
    const lines = instance
      .output()
      .slice(marks[k] ?? 0)
      .split("\n");
    for (const line of lines) {
      const text = line.trim();
      if (!text) continue;
      let key: string;
      try {
        const o = JSON.parse(text) as {
          level?: string;
          msg?: string;
          err?: { name?: string; message?: string; stack?: string };
          path?: string;
        };
        if (o.level !== "warn" && o.level !== "error") continue;
        const frames =
          o.level === "error" && o.err?.stack
            ? ` @ ${o.err.stack
                .split("\n")
                .slice(1, 4)
                .map((f) => f.trim().replace(/^at /, ""))
                .join(" < ")}`
            : "";
        // viem's messages run to the request body: their first line and the node's "Details".
        const message = o.err?.message ?? "";
        const details = /^Details: (.*)$/m.exec(message)?.[1];
        const said = `${message.split("\n")[0]}${details ? ` (${details})` : ""}`;
        const err = o.err ? `: ${o.err.name ?? "Error"}: ${said}${frames}` : "";
        key = `${o.level} "${o.msg}"${o.path ? ` ${o.path}` : ""}${err}`;
      } catch {
        key = `output: ${text}`;
      }
      key = key.replace(/\s+/g, " ").slice(0, LOG_WIDTH);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  const distinct = [...seen].sort((a, b) => b[1] - a[1]);
  const shown = distinct.slice(0, LOG_LINES).map(([key, n]) => `${n} × ${key}`);
  if (distinct.length > LOG_LINES)
    shown.push(`… and ${distinct.length - LOG_LINES} more distinct lines`);
  return shown;
}

/** A run's errors, for its notes: the server's log lines and the first answers that failed. */
function errorNotes(label: string, s: Measured, raw?: Measured): string[] {
  const failed = [...(raw?.failures ?? []).map((f) => `raw: ${f}`), ...s.failures];
  if (!s.errors && !raw?.errors && !s.serverLog.length) return [];
  return [
    ...(s.serverLog.length
      ? [`${label}: the server logged (warn/error, distinct):`, ...s.serverLog.map((l) => `  ${l}`)]
      : [`${label}: the server logged no warning or error`]),
    ...(failed.length ? [`${label}: first failed requests:`, ...failed.map((f) => `  ${f}`)] : []),
  ];
}

// ---- the world: database, chain, build, instances -----------------------------------------

type World = Awaited<ReturnType<typeof startWorld>>;

async function startWorld(opts: {
  blockTime?: number;
  instances: string[];
  /** Put counting proxies between the instances and PostgreSQL and the node (`trips`). */
  count?: boolean;
}) {
  // The bench signs the brand's session token with the servers' secret.
  process.env.AUTH_SECRET = randomBytes(24).toString("hex");
  process.env.CRON_SECRET = randomBytes(24).toString("hex");
  let env: BenchEnv;
  try {
    env = await benchEnvironment({
      postgres: postgresServer(),
      blockTime: opts.blockTime,
      // With blocks every 2 s, Base's block gas limit (140M: docs.base.org, block building),
      // not anvil's 30M, which releases and reputation records at c=100 fill.
      gasLimit: opts.blockTime ? BASE_BLOCK_GAS_LIMIT : undefined,
    });
  } catch (err) {
    throw new Error(
      `the HTTP benchmarks need PostgreSQL (BENCH_DATABASE_URL, else ${postgresServer()}): ${(err as Error).message}`,
    );
  }
  const database = env.database as { url: string; name: string };
  const vars: Record<string, string | undefined> = {
    NEXT_DIST_DIR: DIST_DIR,
    // npm run typecheck checks the same sources: the build skips it.
    BUILD_TYPECHECK: "0",
    PGLITE_DIR: undefined,
    DEV_IDP_ENABLED: "1",
    STORAGE_LOCAL_IN_PRODUCTION: "1",
    // Warnings too (a reputation record the node refused, a release sent again…): what the
    // instances log is summarised beside the figures (serverLog).
    LOG_LEVEL: "warn",
  };
  if (!buildIsCurrent(DIST_PATH)) {
    const t = performance.now();
    process.stdout.write(`next build into ${DIST_DIR} …`);
    const built = await nextBuild(vars);
    if (built.code !== 0) throw new Error(`next build failed:\n${built.output.slice(-4000)}`);
    console.log(` ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const { sql } = await import("drizzle-orm");
  const { createSessionToken } = await import("@/lib/auth/session");
  const fixtures = await benchMilestones(env);
  const { token } = await createSessionToken(fixtures.brand.id);
  const appDbUrl = (name: string) => {
    const u = new URL(database.url);
    u.searchParams.set("application_name", `bench-${name}`);
    return u.toString();
  };
  const instances: Instance[] = [];
  let proxy: RoundRobin | undefined;
  const counters = opts.count
    ? {
        pg: await startPgCounter(database.url),
        rpc: await startRpcProxy(env.anvil.rpcUrl),
      }
    : undefined;
  const close = async () => {
    await proxy?.close();
    await Promise.all(instances.map((i) => i.stop()));
    await counters?.pg.close();
    await counters?.rpc.close();
    await env.close();
  };
  const through = (url: string) => {
    if (!counters) return url;
    const u = new URL(url);
    const p = new URL(counters.pg.url);
    u.hostname = p.hostname;
    u.port = p.port;
    return u.toString();
  };
  try {
    const started = await Promise.all(
      opts.instances.map((name) =>
        startInstance(name, {
          ...vars,
          DATABASE_URL: through(appDbUrl(name)),
          ...(counters ? { RPC_URL: counters.rpc.url } : {}),
        }),
      ),
    );
    instances.push(...started);
    proxy = instances.length > 1 ? await roundRobin(instances) : undefined;
  } catch (err) {
    await close();
    throw err;
  }

  /** The PostgreSQL backends serving the instances (application_name bench-<instance>). */
  async function backends(): Promise<
    Array<{ pid: number; app: string; waiting: boolean; active: boolean; what: string | null }>
  > {
    const rows = (await env.db.execute(sql`
      select pid, application_name as app, wait_event_type = 'Lock' as waiting,
             state = 'active' as active,
             wait_event || ': ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as what
      from pg_stat_activity
      where datname = ${database.name} and application_name like 'bench-%'`)) as unknown as Array<{
      pid: number;
      app: string;
      waiting: boolean | null;
      active: boolean | null;
      what: string | null;
    }>;
    return rows.map((r) => ({ ...r, waiting: Boolean(r.waiting), active: Boolean(r.active) }));
  }

  return {
    env,
    fixtures,
    token,
    instances,
    proxy,
    backends,
    close,
    database,
    counters,
    blockTime: opts.blockTime,
  };
}

// ---- requests ------------------------------------------------------------------------------

type Outcome = "paid" | "submitted";

async function post(url: string, token: string, body: unknown) {
  const res = await fetch(`${url}/api/settle`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  return { status: res.status, text };
}

/** One POST /api/settle: paid (200) or submitted (202, reconcile finishes it); else throws. */
async function settleOne(url: string, token: string, milestoneId: string): Promise<Outcome> {
  const { status, text } = await post(url, token, { milestoneId });
  if (status === 200 && JSON.parse(text).outcome === "paid") return "paid";
  if (status === 202) return "submitted";
  throw new Error(`settle answered ${status}: ${text.slice(0, 300)}`);
}

/** Whether this server takes bulk settles (POST /api/settle with milestoneIds). */
async function bulkSupported(url: string, token: string, milestoneId: string): Promise<boolean> {
  const { status } = await post(url, token, { milestoneIds: [milestoneId] });
  return status === 200 || status === 202;
}

/**
 * One bulk settle: each item's outcome must be paid or submitted (the response's shape:
 * lib/settle/settle.ts bulkSettleResponse); else throws. Returns how many were submitted.
 */
async function settleBulk(url: string, token: string, ids: string[]): Promise<number> {
  const { status, text } = await post(url, token, { milestoneIds: ids });
  if (status !== 200 && status !== 202)
    throw new Error(`bulk settle answered ${status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { results?: Array<{ outcome?: string; status?: number }> };
  const bad = (body.results ?? []).filter(
    (r) => !["paid", "submitted"].includes(String(r.outcome)),
  );
  if (!body.results || body.results.length !== ids.length || bad.length)
    throw new Error(`bulk settle: ${bad.length} items not paid: ${text.slice(0, 300)}`);
  return body.results.filter((r) => r.outcome === "submitted").length;
}

// ---- measurement ---------------------------------------------------------------------------

type Measured = PoolResult & {
  /** CPU ms per operation of: next-server (all instances), its PostgreSQL backends, anvil. */
  cpu: { next: number; postgres: number; anvil: number; bench: number };
  /** The machine's CPU busy share over the run (2 cores = 100 %). */
  busy: number;
  /** Per instance: most database connections seen open at once, and most of them active. */
  connections: Map<string, { open: number; active: number }>;
  /** Sessions waiting on a lock, on average over the samples. */
  lockWaiters: number;
  /** What they waited on most (lock kind: statement), with the average count. */
  lockedOn: string;
  submitted: number;
  load: string;
  /** The warn and error lines the instances logged during the run (serverLog). */
  serverLog: string[];
  /** The blocks mined during the run: how many, and their gas used against their limit. */
  blocks: { count: number; gasShare: number; fullest: number };
};

/** Gas used in blocks (from, to] against their gas limit: the chain's room, as a share. */
async function blockGas(
  from: bigint,
  to: bigint,
): Promise<{ count: number; gasShare: number; fullest: number }> {
  const { publicClient } = await import("@/lib/chain/config");
  const client = publicClient();
  let used = 0n;
  let limit = 0n;
  let fullest = 0;
  for (let n = from + 1n; n <= to; n++) {
    const b = await client.getBlock({ blockNumber: n });
    used += b.gasUsed;
    limit += b.gasLimit;
    fullest = Math.max(fullest, Number(b.gasUsed) / Number(b.gasLimit));
  }
  return { count: Number(to - from), gasShare: limit ? Number(used) / Number(limit) : 0, fullest };
}

async function measure(
  w: World,
  c: number,
  total: number,
  ops: number,
  job: (i: number) => Promise<unknown>,
): Promise<Measured> {
  const nextPids = () => w.instances.flatMap((i) => processTree(i.pid() as number));
  const pgPids = async () => (await w.backends()).map((b) => b.pid);
  const anvilPid = [w.env.anvil.pid];
  const marks = logMarks(w);
  const { publicClient } = await import("@/lib/chain/config");
  // On --block-time only (in automine every transaction is a block of its own).
  const head = () =>
    w.blockTime ? publicClient().getBlockNumber({ cacheTime: 0 }) : Promise.resolve(0n);
  const firstBlock = await head();
  const before = {
    next: cpuOf(nextPids()),
    pg: cpuOf(await pgPids()),
    anvil: cpuOf(anvilPid),
    bench: process.cpuUsage(),
    machine: machineCpu(),
  };
  const connections = new Map<string, { open: number; active: number }>();
  let samples = 0;
  let waiting = 0;
  const lockedOn = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rows = await w.backends();
      const per = new Map<string, { open: number; active: number }>();
      for (const r of rows) {
        const n = per.get(r.app) ?? { open: 0, active: 0 };
        per.set(r.app, { open: n.open + 1, active: n.active + (r.active ? 1 : 0) });
      }
      for (const [app, n] of per) {
        const seen = connections.get(app) ?? { open: 0, active: 0 };
        connections.set(app, {
          open: Math.max(seen.open, n.open),
          active: Math.max(seen.active, n.active),
        });
      }
      for (const r of rows.filter((x) => x.waiting)) {
        waiting++;
        const what = r.what ?? "?";
        lockedOn.set(what, (lockedOn.get(what) ?? 0) + 1);
      }
      samples++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const result = await pool(c, total, job);
  sampling = false;
  await sampler;
  const after = {
    next: cpuOf(nextPids()),
    pg: cpuOf(await pgPids()),
    anvil: cpuOf(anvilPid),
    bench: process.cpuUsage(before.bench),
    machine: machineCpu(),
  };
  return {
    ...result,
    cpu: {
      next: cpuSpent(before.next, after.next) / ops,
      postgres: cpuSpent(before.pg, after.pg) / ops,
      anvil: cpuSpent(before.anvil, after.anvil) / ops,
      bench: (after.bench.user + after.bench.system) / 1000 / ops,
    },
    busy: (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total),
    connections,
    lockWaiters: samples ? waiting / samples : 0,
    lockedOn: [...lockedOn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map(([what, n]) => `${fmt(n / samples)} × ${what}`)
      .join("; "),
    submitted: 0,
    load: load(),
    serverLog: serverLog(w, marks),
    blocks: await blockGas(firstBlock, await head()),
  };
}

/**
 * Where the run's limit lay, from what was sampled: the machine's CPU (busy ≥ 90 % of the run),
 * the database pool (an instance with all its connections active at once) or the signer and
 * other row locks (a session or more waiting on a lock on average).
 */
function limitOf(s: Measured): string {
  const out: string[] = [];
  if (s.busy >= 0.9) out.push(`CPU (machine busy ${fmt(s.busy * 100, 0)} %)`);
  const full = [...s.connections].filter(([, n]) => n.active >= 10).map(([app]) => app);
  if (full.length) out.push(`database pool (all 10 connections active: ${full.join(", ")})`);
  if (s.lockWaiters >= 1) out.push(`locks (${s.lockedOn})`);
  if (s.blocks.count > 1 && s.blocks.gasShare >= 0.8)
    out.push(`block gas (${fmt(s.blocks.gasShare * 100, 0)} % of the blocks' gas used)`);
  return `limit: ${out.join("; ") || "none of CPU, database pool, locks (the chain or the client)"}`;
}

/** Each milestone paid exactly once: Released events, settlement rows, the creator's balance. */
async function checkPaidOnce(w: World, settled: string[]): Promise<string> {
  const { inArray, sql } = await import("drizzle-orm");
  const { parseAbiItem } = await import("viem");
  const { settlements } = await import("@/db/schema");
  const { publicClient } = await import("@/lib/chain/config");
  const { mockUsdcAbi } = await import("@/contracts/artifacts");
  const url = w.instances[0]?.url as string;
  // Reconcile finishes what a 202 left submitted (and records reputation); run until settled.
  const deadline = Date.now() + 180_000;
  let open = Number.POSITIVE_INFINITY;
  while (open > 0 && Date.now() < deadline) {
    await fetch(`${url}/api/cron/reconcile`, {
      headers: { authorization: `Bearer ${process.env.CRON_SECRET}` },
      signal: AbortSignal.timeout(300_000),
    }).then((r) => r.arrayBuffer());
    const [row] = await w.env.db
      .select({ n: sql<number>`count(*)::int` })
      .from(settlements)
      .where(sql`${settlements.status} <> 'confirmed'`);
    open = row?.n ?? 0;
    if (open > 0) await new Promise((r) => setTimeout(r, 1000));
  }
  const confirmed = settled.length
    ? await w.env.db
        .select({ n: sql<number>`count(*)::int` })
        .from(settlements)
        .where(inArray(settlements.milestoneId, settled))
    : [{ n: 0 }];
  const logs = await publicClient().getLogs({
    address: w.env.deployment.escrow,
    event: parseAbiItem(
      "event Released(bytes32 indexed dealKey, uint256 indexed index, address indexed creator, uint256 payout, uint256 refund, bytes32 verdictHash)",
    ),
    fromBlock: 0n,
    toBlock: "latest",
  });
  const per = new Map<string, number>();
  for (const l of logs) {
    const k = `${l.args.dealKey}:${l.args.index}`;
    per.set(k, (per.get(k) ?? 0) + 1);
  }
  const twice = [...per.values()].filter((n) => n > 1).length;
  const balance = await publicClient().readContract({
    address: w.env.deployment.usdc,
    abi: mockUsdcAbi,
    functionName: "balanceOf",
    args: [w.fixtures.creator.walletAddress as `0x${string}`],
  });
  // Every bench milestone is 10 USDC at a 0.9 score: 9 USDC to the creator.
  const expected = BigInt(per.size) * 9_000_000n;
  const ok =
    twice === 0 &&
    open === 0 &&
    per.size === settled.length &&
    confirmed[0]?.n === settled.length &&
    balance === expected;
  const line = `paid once: ${ok ? "yes" : "NO"} — ${settled.length} milestones settled, ${logs.length} Released events over ${per.size} milestones (${twice} paid twice), ${confirmed[0]?.n} settlement rows, ${open} not confirmed after reconcile, creator holds ${Number(balance) / 1e6} USDC (expected ${Number(expected) / 1e6})`;
  if (!ok) process.exitCode = 1;
  return line;
}

function latencyRows(label: string, raw: PoolResult, s: PoolResult, blockMs?: number): Row[] {
  const rows: Row[] = [
    [`${label}: settles/s vs raw transfers/s`, raw.perSecond, s.perSecond, "ops/s"],
    [`${label}: p50 vs raw p50`, median(raw.latencies), median(s.latencies), "ms"],
    [`${label}: p95 vs raw p95`, percentile(raw.latencies, 95), percentile(s.latencies, 95), "ms"],
  ];
  if (blockMs)
    rows.push([
      `${label}: p50 in blocks (2 s) vs raw`,
      median(raw.latencies) / blockMs,
      median(s.latencies) / blockMs,
      "blocks",
    ]);
  return rows;
}

function cpuNote(label: string, raw: Measured, s: Measured): string {
  return `${label}: CPU per settle next-server ${fmt(s.cpu.next)} ms, postgres ${fmt(s.cpu.postgres)} ms, anvil ${fmt(s.cpu.anvil)} ms (bench client ${fmt(s.cpu.bench)} ms); per raw transfer anvil ${fmt(raw.cpu.anvil)} ms, client ${fmt(raw.cpu.bench)} ms; machine busy ${fmt(s.busy * 100, 0)} % (raw ${fmt(raw.busy * 100, 0)} %); errors raw ${raw.errors}, settle ${s.errors}; 202s ${s.submitted}; sessions waiting on a lock ${fmt(s.lockWaiters)} on average${s.lockWaiters ? ` (${s.lockedOn})` : ""}${s.blocks.count ? `; ${s.blocks.count} blocks, ${fmt(s.blocks.gasShare * 100, 0)} % of their gas limit used (fullest ${fmt(s.blocks.fullest * 100, 0)} %; raw ${fmt(raw.blocks.gasShare * 100, 0)} %)` : ""}; ${limitOf(s)}; ${s.load}`;
}

// ---- sections ------------------------------------------------------------------------------

const WARM = 5;

/** Settles (and raw transfers) at c=20 after the first ones, in automine: the JIT's warm-up. */
const WARM_CONCURRENT = 60;

/**
 * Warms both paths (connections, JIT; the first request to next start is slow): the ids paid.
 * `concurrent`: then WARM_CONCURRENT more of each at c=20 (automine only) — with five alone,
 * next-server's first round at c=20 still ran 12 ms of CPU per settle against 8-9 ms in the
 * rounds after it, the code not yet compiled for the grouped path.
 */
async function warm(
  w: World,
  url: string,
  raw?: () => Promise<void>,
  concurrent = false,
): Promise<string[]> {
  const ids = await w.fixtures.many(WARM);
  for (const id of ids) await settleOne(url, w.token, id);
  if (raw) for (let k = 0; k < WARM; k++) await raw();
  if (!concurrent || w.blockTime) return ids;
  const more = await w.fixtures.many(WARM_CONCURRENT);
  await pool(20, WARM_CONCURRENT, (i) => settleOne(url, w.token, more[i] as string));
  if (raw) await pool(20, WARM_CONCURRENT, () => raw());
  return [...ids, ...more];
}

/** What a section prints: figures, notes, and the milestones it settled (checked at the end). */
type Report = { rows: Row[]; notes: string[]; settled: string[] };

/** Starts a world, runs `body`, prints its report and checks every milestone was paid once. */
async function runSection(
  opts: Parameters<typeof startWorld>[0],
  title: string,
  body: (w: World, r: Report) => Promise<void>,
): Promise<void> {
  const w = await startWorld(opts);
  try {
    const r: Report = { rows: [], notes: [], settled: [] };
    const marks = logMarks(w);
    try {
      await body(w, r);
    } catch (err) {
      // What was measured before it failed, and what the server said meanwhile.
      printRows(title, r.rows);
      for (const n of r.notes) console.log(`  ${n}`);
      console.log("  the section failed; the server logged (warn/error, distinct):");
      for (const l of serverLog(w, marks)) console.log(`    ${l}`);
      throw err;
    }
    printRows(title, r.rows);
    for (const n of r.notes) console.log(`  ${n}`);
    console.log(`  ${await checkPaidOnce(w, r.settled)}`);
    // The whole section's, reconcile at the end and work after the responses included.
    const logged = serverLog(w, marks);
    if (logged.length) {
      console.log("  the server logged over the whole section (warn/error, distinct):");
      for (const l of logged) console.log(`    ${l}`);
    }
  } finally {
    await w.close();
  }
}

/**
 * Several rounds' measurements as one: rates over the rounds' whole time, latencies and
 * failures pooled, CPU per operation and samples weighted by the rounds' operations.
 */
function combined(rounds: Measured[], opsEach: number): Measured {
  const [first, ...rest] = rounds as [Measured, ...Measured[]];
  if (!rest.length) return first;
  const ops = opsEach * rounds.length;
  const elapsedMs = rounds.reduce((a, m) => a + m.elapsedMs, 0);
  const avg = (f: (m: Measured) => number) => rounds.reduce((a, m) => a + f(m), 0) / rounds.length;
  const connections = new Map(first.connections);
  for (const m of rest)
    for (const [app, n] of m.connections) {
      const seen = connections.get(app) ?? { open: 0, active: 0 };
      connections.set(app, {
        open: Math.max(seen.open, n.open),
        active: Math.max(seen.active, n.active),
      });
    }
  return {
    ...first,
    perSecond: (ops * 1000) / elapsedMs,
    elapsedMs,
    latencies: rounds.flatMap((m) => m.latencies),
    errors: rounds.reduce((a, m) => a + m.errors, 0),
    failures: rounds.flatMap((m) => m.failures).slice(0, 5),
    cpuMs: avg((m) => m.cpuMs),
    cpu: {
      next: avg((m) => m.cpu.next),
      postgres: avg((m) => m.cpu.postgres),
      anvil: avg((m) => m.cpu.anvil),
      bench: avg((m) => m.cpu.bench),
    },
    busy: avg((m) => m.busy),
    connections,
    lockWaiters: avg((m) => m.lockWaiters),
    submitted: rounds.reduce((a, m) => a + m.submitted, 0),
    load: rounds.at(-1)?.load ?? first.load,
    serverLog: [...new Set(rounds.flatMap((m) => m.serverLog))],
    blocks: {
      count: rounds.reduce((a, m) => a + m.blocks.count, 0),
      gasShare: avg((m) => m.blocks.gasShare),
      fullest: Math.max(...rounds.map((m) => m.blocks.fullest)),
    },
  };
}

/**
 * Single settles at each level against raw transfers at the same concurrency, in `rounds`
 * alternations (raw, then settles, again), so that what else the machine does meanwhile
 * weighs on both alike; each round's ratio is noted beside the pooled figures.
 */
async function singles(
  w: World,
  r: Report,
  levels: Array<[c: number, total: number, rounds?: number]>,
  blockMs?: number,
): Promise<void> {
  const url = (w.instances[0] as Instance).url;
  const raw = await rawSender(w.env);
  r.settled.push(...(await warm(w, url, raw, true)));
  for (const [c, total, rounds = 1] of levels) {
    const bases: Measured[] = [];
    const settles: Measured[] = [];
    for (let k = 0; k < rounds; k++) {
      await w.env.mining.automine();
      const ids = await w.fixtures.many(total);
      await w.env.mining.blocks();
      bases.push(await measure(w, c, total, total, () => raw()));
      let submitted = 0;
      const s = await measure(w, c, total, total, async (i) => {
        if ((await settleOne(url, w.token, ids[i] as string)) === "submitted") submitted++;
      });
      s.submitted = submitted;
      settles.push(s);
      r.settled.push(...ids);
    }
    const base = combined(bases, total);
    const s = combined(settles, total);
    const label = `single c=${c} (${rounds > 1 ? `${rounds} × ` : ""}${total})`;
    r.rows.push(...latencyRows(label, base, s, blockMs));
    r.notes.push(cpuNote(label, base, s), ...errorNotes(label, s, base));
    if (rounds > 1)
      r.notes.push(
        `${label}: each round's settles/s vs raw: ${settles
          .map(
            (m, k) =>
              `${fmt(m.perSecond)} / ${fmt(bases[k]?.perSecond ?? 0)} = ${fmt(m.perSecond / (bases[k]?.perSecond ?? 1), 2)}×, next-server ${fmt(m.cpu.next)} ms`,
          )
          .join("; ")}`,
      );
  }
}

/**
 * What any authenticated request costs next-server, for scale beside a settle's CPU:
 * GET /api/auth/me (the session token read, the user loaded, the JSON answer) at c=20.
 */
async function floor(w: World, r: Report): Promise<void> {
  const url = (w.instances[0] as Instance).url;
  const me = async () => {
    const res = await fetch(`${url}/api/auth/me`, {
      headers: { authorization: `Bearer ${w.token}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/auth/me answered ${res.status}`);
  };
  for (let k = 0; k < WARM; k++) await me();
  const m = await measure(w, 20, 1000, 1000, me);
  r.notes.push(
    `for scale, GET /api/auth/me c=20 (1000): ${fmt(m.perSecond, 0)} requests/s, next-server ${fmt(m.cpu.next, 2)} ms and postgres ${fmt(m.cpu.postgres, 2)} ms per request; errors ${m.errors}; ${m.load}`,
  );
}

const httpSection = () =>
  runSection(
    { instances: ["a"] },
    "Settles over HTTP — next start (production build), PostgreSQL, anvil automine; baseline: raw single ERC-20 transfers, same concurrency, same run",
    (w, r) =>
      singles(w, r, [
        [1, 20],
        [20, 200, 3],
        [100, 200, 2],
      ]).then(() => floor(w, r)),
  );

const BLOCK_SECONDS = 2;
/** Base mainnet's block gas limit (docs.base.org, "Block building": 140M). */
const BASE_BLOCK_GAS_LIMIT = 140_000_000;

const blocktimeSection = () =>
  runSection(
    { instances: ["a"], blockTime: BLOCK_SECONDS },
    `Settles over HTTP on anvil --block-time ${BLOCK_SECONDS} — next start, PostgreSQL; baseline: raw single ERC-20 transfers, same run`,
    async (w, r) => {
      const blockMs = BLOCK_SECONDS * 1000;
      await singles(
        w,
        r,
        [
          [1, 6],
          [20, 60],
          [100, 200],
        ],
        blockMs,
      );
      // Bulk settles: `c` concurrent requests of `bulk` milestones each (c × bulk milestones in
      // flight: 20, 100 and 500), against raw transfers with as many payments in flight (at
      // most 100: the raw sender's own concurrency levels).
      const url = (w.instances[0] as Instance).url;
      const raw = await rawSender(w.env);
      await w.env.mining.automine();
      const probe = await w.fixtures.one();
      if (!(await bulkSupported(url, w.token, probe))) {
        r.notes.push("bulk settle: this server refuses milestoneIds (not measured)");
        return;
      }
      r.settled.push(probe);
      for (const [bulk, c, requests] of [
        [20, 1, 3],
        [100, 1, 2],
        [100, 5, 5],
      ] as Array<[number, number, number]>) {
        await w.env.mining.automine();
        const ids = await w.fixtures.many(requests * bulk);
        await w.env.mining.blocks();
        const inFlight = Math.min(100, c * bulk);
        const base = await measure(w, inFlight, requests * bulk, requests * bulk, () => raw());
        let submitted = 0;
        const s = await measure(w, c, requests, requests * bulk, async (i) => {
          submitted += await settleBulk(url, w.token, ids.slice(i * bulk, (i + 1) * bulk));
        });
        s.submitted = submitted;
        r.settled.push(...ids);
        // Milestones paid per second against raw transfers/s; latency per request.
        const paid = { ...s, perSecond: s.perSecond * bulk };
        const label = `bulk ${bulk}/request c=${c} (${requests * bulk} milestones; raw c=${inFlight})`;
        r.rows.push(...latencyRows(label, base, paid, blockMs));
        r.notes.push(cpuNote(label, base, s), ...errorNotes(label, s, base));
      }
    },
  );

const instancesSection = () =>
  runSection(
    { instances: ["a", "b", "c"] },
    "One next start against three (round-robin proxy), one PostgreSQL database, one anvil (automine)",
    async (w, r) => {
      const one = (w.instances[0] as Instance).url;
      const three = (w.proxy as RoundRobin).url;
      // Every instance warmed (the proxy takes turns).
      r.settled.push(...(await warm(w, three)), ...(await warm(w, three)));
      for (const [c, total] of [
        [20, 100],
        [100, 200],
      ] as Array<[number, number]>) {
        const results: Measured[] = [];
        for (const [name, url] of [
          ["one instance", one],
          ["three instances", three],
        ]) {
          const ids = await w.fixtures.many(total);
          let submitted = 0;
          const s = await measure(w, c, total, total, async (i) => {
            if ((await settleOne(url as string, w.token, ids[i] as string)) === "submitted")
              submitted++;
          });
          s.submitted = submitted;
          r.settled.push(...ids);
          results.push(s);
          r.notes.push(...errorNotes(`${name}, c=${c}`, s));
          const conns = [...s.connections]
            .sort()
            .map(([app, n]) => `${app.replace("bench-", "")} ${n.open} (${n.active} active)`)
            .join(", ");
          r.notes.push(
            `${name}, c=${c} (${total}): p50 ${fmt(median(s.latencies), 0)} ms, p95 ${fmt(percentile(s.latencies, 95), 0)} ms; database connections, most open at once (pool max 10 each) ${conns || "none"}; sessions waiting on a lock ${fmt(s.lockWaiters)} on average${s.lockWaiters ? ` (${s.lockedOn})` : ""}; CPU per settle next-server ${fmt(s.cpu.next)} ms (all instances), postgres ${fmt(s.cpu.postgres)} ms, anvil ${fmt(s.cpu.anvil)} ms, bench client ${fmt(s.cpu.bench)} ms; machine busy ${fmt(s.busy * 100, 0)} %; errors ${s.errors}, 202s ${s.submitted}; ${limitOf(s)}; ${s.load}`,
          );
        }
        const [a, b] = results as [Measured, Measured];
        r.rows.push(
          [`c=${c}: settles/s, three instances vs one`, a.perSecond, b.perSecond, "ops/s"],
          [
            `c=${c}: p95, three instances vs one`,
            percentile(a.latencies, 95),
            percentile(b.latencies, 95),
            "ms",
          ],
        );
      }
    },
  );

/** Resolves once the settlement of `milestoneId` has its reputation record (after() work). */
async function reputationRecorded(w: World, milestoneId: string): Promise<void> {
  const { and, eq, isNotNull } = await import("drizzle-orm");
  const { settlements } = await import("@/db/schema");
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [row] = await w.env.db
      .select({ id: settlements.id })
      .from(settlements)
      .where(
        and(eq(settlements.milestoneId, milestoneId), isNotNull(settlements.reputationTxHash)),
      );
    if (row) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`milestone ${milestoneId}: no reputation record after 60 s`);
}

type Tally = { statements: number; transactions: number; roundTrips: number; rpc: number };
const TRIPS = 10;

const tripsSection = () =>
  runSection(
    { instances: ["a"], blockTime: BLOCK_SECONDS, count: true },
    `What next-server sends per settle (POST /api/settle, one at a time, ${TRIPS} settles; counted by proxies in front of PostgreSQL and the node). Columns: automine, then --block-time ${BLOCK_SECONDS}`,
    async (w, r) => {
      const url = (w.instances[0] as Instance).url;
      const counters = w.counters as NonNullable<World["counters"]>;
      const warmed = await warm(w, url);
      r.settled.push(...warmed);
      for (const id of warmed) await reputationRecorded(w, id);
      const rpcTotal = () => [...counters.rpc.counts.values()].reduce((a, b) => a + b, 0);
      const tallies: Array<{ request: Tally; after: Tally; methods: Map<string, number> }> = [];
      let statements = new Map<string, number>();
      for (const interval of [false, true]) {
        await w.env.mining.automine();
        const ids = await w.fixtures.many(TRIPS);
        if (interval) await w.env.mining.blocks();
        const zero = (): Tally => ({ statements: 0, transactions: 0, roundTrips: 0, rpc: 0 });
        const request = zero();
        const after = zero();
        const methodsBefore = new Map(counters.rpc.counts);
        const add = (t: Tally, rpcBefore: number) => {
          const c = counters.pg.counts;
          t.statements += c.statements;
          t.transactions += c.transactions;
          t.roundTrips += c.roundTrips;
          t.rpc += rpcTotal() - rpcBefore;
        };
        statements = new Map();
        for (const id of ids) {
          counters.pg.reset();
          let rpc = rpcTotal();
          await settleOne(url, w.token, id);
          add(request, rpc);
          // BENCH_TRACE=1: the statements of the last settle of each pass, in order.
          const last = id === ids.at(-1) && process.env.BENCH_TRACE;
          if (last) console.log(`request:\n${counters.pg.counts.trace.join("\n")}`);
          for (const [k, n] of counters.pg.counts.byText)
            statements.set(k, (statements.get(k) ?? 0) + n);
          counters.pg.reset();
          rpc = rpcTotal();
          await reputationRecorded(w, id);
          add(after, rpc);
          if (last) console.log(`after:\n${counters.pg.counts.trace.join("\n")}`);
          for (const [k, n] of counters.pg.counts.byText)
            statements.set(k, (statements.get(k) ?? 0) + n);
        }
        r.settled.push(...ids);
        const methods = new Map<string, number>();
        for (const [m, n] of counters.rpc.counts) {
          const d = n - (methodsBefore.get(m) ?? 0);
          if (d) methods.set(m, d);
        }
        tallies.push({ request, after, methods });
        r.notes.push(
          `statements per settle, ${interval ? `--block-time ${BLOCK_SECONDS}` : "automine"} (request and reputation record): ${[
            ...statements,
          ]
            .sort((a, b) => b[1] - a[1])
            .map(([k, n]) => `${fmt(n / TRIPS)} ${k}`)
            .join(", ")}`,
        );
      }
      const [auto, blocks] = tallies as [(typeof tallies)[0], (typeof tallies)[0]];
      for (const [part, label] of [
        ["request", "in the request"],
        ["after", "after the response (reputation record)"],
      ] as const) {
        const a = auto[part];
        const b = blocks[part];
        r.rows.push(
          [`SQL statements ${label}`, a.statements / TRIPS, b.statements / TRIPS, "per settle"],
          [
            `SQL transactions ${label}`,
            a.transactions / TRIPS,
            b.transactions / TRIPS,
            "per settle",
          ],
          [`SQL round trips ${label}`, a.roundTrips / TRIPS, b.roundTrips / TRIPS, "per settle"],
          [`JSON-RPC requests ${label}`, a.rpc / TRIPS, b.rpc / TRIPS, "per settle"],
        );
      }
      for (const [i, t] of tallies.entries())
        r.notes.push(
          `JSON-RPC per settle, ${i ? `--block-time ${BLOCK_SECONDS}` : "automine"} (request and reputation record): ${[
            ...t.methods,
          ]
            .sort((a, b) => b[1] - a[1])
            .map(([m, n]) => `${fmt(n / TRIPS)} ${m}`)
            .join(", ")}`,
        );
    },
  );

/**
 * Why the raw baseline moves within a run: raw transfers alone, several rounds in a row, then
 * the same after the bench has made its deals (400 milestones' worth: funded escrows, their
 * brands and creators). anvil's CPU per transfer stays flat over the rounds of transfers and
 * grows once the chain holds the deals — in automine every transaction is a block, and anvil's
 * cost per block grows with the state it holds, which a real chain's does not.
 */
const driftSection = () =>
  runSection(
    { instances: ["a"] },
    "Raw transfers (c=20, 300 a round) on anvil automine, before and after the bench's deals",
    async (w, r) => {
      const raw = await rawSender(w.env);
      const rounds = async (when: string) => {
        for (let k = 1; k <= 3; k++) {
          const m = await measure(w, 20, 300, 300, () => raw());
          r.notes.push(
            `${when}, round ${k}: ${fmt(m.perSecond, 0)} transfers/s, anvil ${fmt(m.cpu.anvil, 2)} ms and client ${fmt(m.cpu.bench, 2)} ms CPU per transfer; ${m.load}`,
          );
        }
      };
      await rounds("before the deals");
      await w.fixtures.many(400);
      await rounds("after 400 milestones' deals");
    },
  );

const sections: Record<string, () => Promise<void>> = {
  drift: driftSection,
  trips: tripsSection,
  http: httpSection,
  blocktime: blocktimeSection,
  instances: instancesSection,
};

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((n) => !(n in sections));
  if (unknown.length)
    throw new Error(`unknown section ${unknown.join(", ")} (${Object.keys(sections).join(", ")})`);
  // One section per process: the app's modules cache their environment (database, chain), and
  // each section has its own.
  if (asked.length !== 1) {
    for (const name of asked.length ? asked : Object.keys(sections)) {
      const res = spawnSync(
        path.resolve(import.meta.dirname, "../node_modules/.bin/tsx"),
        [import.meta.filename, name],
        { stdio: "inherit" },
      );
      if (res.status !== 0) process.exitCode = res.status ?? 1;
    }
    return;
  }
  const name = asked[0] as string;
  const t = performance.now();
  console.log(`\n== ${name} (${load()}, ${os.cpus().length} cores)`);
  await (sections[name] as () => Promise<void>)();
  console.log(`== ${name}: ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
