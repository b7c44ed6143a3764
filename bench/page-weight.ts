// npm run bench (page weight) — the JavaScript each main page makes the browser download
// before it is interactive ("First Load JS", gzip -9), against a baseline measured in the
// same run: an empty page (a root layout and a page that render nothing) of an empty app
// built with the same Next.js and the same bundler (Turbopack or webpack), in
// .data/bench-empty-app (rebuilt when either changes). What the empty page ships is Next's
// and React's runtime: no page can weigh less.
//
// The figures come from the production build in .next. With no build there, or one older
// than the sources, it runs `npm run build` first (minutes; it writes .next, the directory
// the e2e suite's web server builds into: do not run both at once). `--no-build` measures
// whatever .next holds; `--build` always builds; `--check` exits 1 when a goal route is over.
//
// A page's figure is the runtime chunks plus every chunk its layouts, page and boundaries
// (loading, error, not-found, global-error) load up front, read from the page's client
// reference manifest (Turbopack lists them per segment; webpack per client module); chunks
// loaded on demand (import(), next/dynamic) are not counted. For pages prerendered to HTML,
// the <script> tags of the HTML are summed as well and must agree.
// Goal (issue #15): at most 120 kB on home, sign-in, docs and the dashboards.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

const GOAL_KB = 120;
const ROOT = path.resolve(import.meta.dirname, "..");
const EMPTY_APP = path.join(ROOT, ".data", "bench-empty-app");
const routes: Array<{ route: string; goal: boolean }> = [
  { route: "/", goal: true },
  { route: "/sign-in", goal: true },
  { route: "/docs", goal: true },
  { route: "/brand", goal: true },
  { route: "/creator", goal: true },
  { route: "/brand/deals/new", goal: false },
  { route: "/deals/[id]", goal: false },
  { route: "/wallet", goal: false },
  { route: "/_not-found", goal: false },
];
/** The segments every page of an app loads: what "(root layout)" counts. */
const ROOT_SEGMENTS = /^app\/(layout|error|not-found|global-error)$|builtin\/global-error$/;
/** What `npm run build` ran on: the sources and configuration a build depends on. */
const SOURCES = ["app", "components", "lib", "db", "next.config.ts", "package-lock.json"];

export type Bundler = "turbopack" | "webpack";

type ClientModule = { chunks: Array<string | number>; async?: boolean };
type Manifest = {
  entryJSFiles?: Record<string, string[]>;
  clientModules?: Record<string, ClientModule>;
};

/** The JS files each segment entry (app/layout, app/brand/page, …) of a route loads. */
function segmentEntries(nextDir: string, route: string): Map<string, string[]> | null {
  const dir = route === "/" ? "" : route.slice(1);
  const file = path.join(nextDir, "server", "app", dir, "page_client-reference-manifest.js");
  if (!existsSync(file)) return null;
  const sandbox = { globalThis: {} as Record<string, unknown> };
  vm.runInNewContext(readFileSync(file, "utf8"), sandbox);
  const all = sandbox.globalThis.__RSC_MANIFEST as Record<string, Manifest>;
  const manifest = all[`${route === "/" ? "" : route}/page`] ?? Object.values(all)[0];
  if (!manifest) return null;
  const entries = new Map<string, string[]>();
  if (manifest.entryJSFiles) {
    // Turbopack: per segment, keyed "[project]/app/brand/layout".
    for (const [key, files] of Object.entries(manifest.entryJSFiles))
      entries.set(key.replace(/^\[project\]\//, ""), files);
    return entries;
  }
  // webpack: each client module lists the chunk group of the entry it was bundled into,
  // ending with that entry's own file (static/chunks/app/brand/layout-<hash>.js).
  for (const mod of Object.values(manifest.clientModules ?? {})) {
    if (mod.async) continue;
    const files = mod.chunks.filter((c): c is string => typeof c === "string" && c.endsWith(".js"));
    for (const f of files) {
      const entry = /static\/chunks\/(app\/.+)-[0-9a-f]+\.js$/.exec(decodeURIComponent(f))?.[1];
      if (entry) entries.set(entry, [...new Set([...(entries.get(entry) ?? []), ...files])]);
    }
  }
  return entries;
}

function bundlerOf(rootMainFiles: string[]): Bundler {
  return rootMainFiles.some((f) => /\/turbopack-[^/]*\.js$/.test(f)) ? "turbopack" : "webpack";
}

/** The <script src> files (module scripts only) of a prerendered page, if it has HTML. */
function htmlScripts(nextDir: string, route: string): string[] | null {
  const name = route === "/" ? "index" : route.slice(1);
  const file = path.join(nextDir, "server", "app", `${name}.html`);
  if (!existsSync(file)) return null;
  const html = readFileSync(file, "utf8");
  return [...html.matchAll(/<script\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => !/\bnoModule\b/i.test(tag))
    .flatMap((tag) => /\bsrc="\/_next\/([^"]+)"/.exec(tag)?.[1] ?? []);
}

function sizer(nextDir: string) {
  const sizes = new Map<string, number>();
  return (files: Iterable<string>) => {
    let total = 0;
    for (const f of new Set(
      [...files].map((f) => decodeURIComponent(f.replace(/^\/_next\//, ""))),
    )) {
      let size = sizes.get(f);
      if (size === undefined) {
        size = gzipSync(readFileSync(path.join(nextDir, f)), { level: 9 }).length;
        sizes.set(f, size);
      }
      total += size;
    }
    return total / 1000;
  };
}

export type Row = { name: string; kb: number; html: number | null; goal: boolean };

/** First Load JS per route of the build in `nextDir`, or null when there is no build. */
export function pageWeights(nextDir = path.join(ROOT, ".next"), list = routes) {
  const buildManifest = path.join(nextDir, "build-manifest.json");
  if (!existsSync(buildManifest)) return null;
  const { rootMainFiles } = JSON.parse(readFileSync(buildManifest, "utf8")) as {
    rootMainFiles: string[];
  };
  const gz = sizer(nextDir);
  const rows: Row[] = [];
  let rootFiles: string[] | null = null;
  for (const { route, goal } of list) {
    const entries = segmentEntries(nextDir, route);
    if (!entries) continue;
    if (!rootFiles)
      rootFiles = [...entries].filter(([k]) => ROOT_SEGMENTS.test(k)).flatMap(([, v]) => v);
    const html = htmlScripts(nextDir, route);
    rows.push({
      name: route,
      kb: gz([...rootMainFiles, ...[...entries.values()].flat()]),
      html: html ? gz(html) : null,
      goal,
    });
  }
  return {
    bundler: bundlerOf(rootMainFiles),
    runtime: gz(rootMainFiles),
    rootLayout: gz([...rootMainFiles, ...(rootFiles ?? [])]),
    rows,
  };
}

function nextVersion(): string {
  const require = createRequire(path.join(ROOT, "package.json"));
  return (require("next/package.json") as { version: string }).version;
}

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

/** Whether .next holds a production build at least as new as every source it came from. */
export function buildIsCurrent(nextDir: string): boolean {
  const id = path.join(nextDir, "BUILD_ID");
  if (!existsSync(id)) return false;
  const built = statSync(id).mtimeMs;
  return SOURCES.every((s) => newestMtime(path.join(ROOT, s)) <= built);
}

function run(what: string, cmd: string, args: string[], cwd: string): void {
  const started = performance.now();
  process.stdout.write(`page weight: ${what} …`);
  const res = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    maxBuffer: 64 << 20,
  });
  if (res.status !== 0) {
    console.log(" failed");
    process.stdout.write(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    throw new Error(`${what} failed (exit ${res.status ?? res.signal})`);
  }
  console.log(` ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The empty app's .next, built with this Next.js and `bundler` unless it already is. */
function emptyAppBuild(bundler: Bundler): string {
  const stampFile = path.join(EMPTY_APP, "stamp.json");
  // v2: with its own instrumentation.js (a build without one took this repository's).
  const stamp = JSON.stringify({ next: nextVersion(), bundler, v: 2 });
  const nextDir = path.join(EMPTY_APP, ".next");
  if (
    existsSync(path.join(nextDir, "BUILD_ID")) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, "utf8") === stamp
  )
    return nextDir;
  mkdirSync(path.join(EMPTY_APP, "app"), { recursive: true });
  // Plain JSX (no TypeScript set-up), its own config (Next looks for one upwards and would
  // find this app's), no dependencies of its own: it resolves next and react from ours.
  writeFileSync(path.join(EMPTY_APP, "package.json"), '{ "private": true }\n');
  writeFileSync(path.join(EMPTY_APP, "next.config.mjs"), "export default {};\n");
  writeFileSync(
    path.join(EMPTY_APP, "app", "layout.jsx"),
    'export default function RootLayout({ children }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  );\n}\n',
  );
  writeFileSync(
    path.join(EMPTY_APP, "app", "page.jsx"),
    "export default function Page() {\n  return null;\n}\n",
  );
  // A no-op hook of its own: without one, Turbopack builds in this repository's
  // instrumentation.ts (it looks at the project root), whose configuration check stops
  // `next start` of the empty app (bench/cold-start.ts starts it).
  writeFileSync(path.join(EMPTY_APP, "instrumentation.js"), "export function register() {}\n");
  const nextBin = createRequire(path.join(ROOT, "package.json")).resolve("next/dist/bin/next");
  run(
    `building the empty app (${bundler}) in ${path.relative(ROOT, EMPTY_APP)}`,
    process.execPath,
    [nextBin, "build", ...(bundler === "webpack" ? ["--webpack"] : [])],
    EMPTY_APP,
  );
  writeFileSync(stampFile, stamp);
  return nextDir;
}

export type Options = { build?: "auto" | "always" | "never"; nextDir?: string };

/** Builds the app into .next when asked to, or (auto) when that build is missing or stale. */
export function ensureBuild(build: Options["build"] = "auto"): void {
  const dir = path.join(ROOT, ".next");
  if (build === "always" || (build === "auto" && !buildIsCurrent(dir)))
    run("npm run build (the app)", "npm", ["run", "--silent", "build"], ROOT);
}

/**
 * The empty app, built (when missing or of another Next) with the bundler of the app's build
 * in .next: its directory, for bench/cold-start.ts to start it.
 */
export function ensureEmptyApp(): string {
  const manifest = path.join(ROOT, ".next", "build-manifest.json");
  const bundler = existsSync(manifest)
    ? bundlerOf(
        (JSON.parse(readFileSync(manifest, "utf8")) as { rootMainFiles: string[] }).rootMainFiles,
      )
    : "turbopack";
  emptyAppBuild(bundler);
  return EMPTY_APP;
}

/** Prints the table; false when a goal route is over the goal (or nothing was measured). */
export function printPageWeights({ build = "auto", nextDir }: Options = {}): boolean {
  const dir = nextDir ?? path.join(ROOT, ".next");
  if (!nextDir) ensureBuild(build);
  const result = pageWeights(dir);
  if (!result) {
    console.log(`\npage weight: no production build in ${dir} (run \`npm run build\`)`);
    return false;
  }
  const empty = pageWeights(emptyAppBuild(result.bundler), [{ route: "/", goal: false }]);
  const emptyRow = empty?.rows[0];
  if (!empty || !emptyRow) throw new Error("the empty app's build has no page manifest");
  const base = emptyRow.kb;
  const { bundler, runtime, rootLayout, rows } = result;

  console.log(
    `\nFirst Load JS per route (gzip -9, kB): ${bundler} build of Next ${nextVersion()} in ${path.relative(ROOT, dir) || dir}`,
  );
  console.log(
    `baseline: the empty page of an empty app, same Next and bundler (${path.relative(ROOT, EMPTY_APP)})`,
  );
  const line = (name: string, kb: number, goal: string) =>
    console.log(
      `${name.padEnd(24)}${kb.toFixed(1).padStart(8)}${`${(kb / base).toFixed(2)}×`.padStart(9)}${`${kb - base >= 0 ? "+" : ""}${(kb - base).toFixed(1)}`.padStart(9)}  ${goal}`,
    );
  console.log(
    `${"route".padEnd(24)}${"kB".padStart(8)}${"× empty".padStart(9)}${"+ kB".padStart(9)}  goal ≤ ${GOAL_KB} kB`,
  );
  line("(empty page: baseline)", base, base > GOAL_KB ? "over the goal by itself" : "");
  line("(runtime chunks alone)", empty.runtime, "");
  line("(this app's root layout)", rootLayout, "");
  let ok = true;
  const mismatches: string[] = [];
  for (const r of rows) {
    const within = r.kb <= GOAL_KB;
    if (r.goal && !within) ok = false;
    line(r.name, r.kb, r.goal ? (within ? "✓" : `✗ (+${(r.kb - GOAL_KB).toFixed(1)})`) : "");
    if (r.html !== null && Math.abs(r.html - r.kb) > 0.05)
      mismatches.push(
        `${r.name}: manifest ${r.kb.toFixed(1)} kB, HTML <script> tags ${r.html.toFixed(1)} kB`,
      );
  }
  if (emptyRow.html !== null && Math.abs(emptyRow.html - base) > 0.05)
    mismatches.push(
      `empty page: manifest ${base.toFixed(1)} kB, HTML ${emptyRow.html.toFixed(1)} kB`,
    );
  if (mismatches.length)
    console.log(`disagreements (the figures may be off):\n  ${mismatches.join("\n  ")}`);
  if (runtime !== empty.runtime)
    console.log(`(this build's runtime chunks: ${runtime.toFixed(1)} kB)`);
  if (base > GOAL_KB)
    console.log(
      `The ${GOAL_KB} kB goal cannot be met on this Next.js: its empty page alone is ${base.toFixed(1)} kB; the "+ kB" column is what this app adds.`,
    );
  return ok;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const build = args.includes("--build")
    ? "always"
    : args.includes("--no-build")
      ? "never"
      : "auto";
  const nextDir = args.find((a) => !a.startsWith("--"));
  const ok = printPageWeights({ build, nextDir: nextDir && path.resolve(nextDir) });
  if (!ok && args.includes("--check")) process.exitCode = 1;
}
