// npm run bench (page weight) — the JavaScript each main page makes the browser download
// before it is interactive ("First Load JS", gzip), read from the last production build in
// .next (run `npm run build` first; the numbers describe that build), against two baselines
// from the same build:
//   framework    Next's runtime alone: what an empty page of an empty app ships
//   root layout  the runtime plus this app's root layout: what an empty page here ships
// A page's figure is the runtime chunks plus every chunk its layouts, page and boundaries
// (loading, error, not-found) load up front; chunks loaded on demand (next/dynamic) are not
// counted. Goal (issue #15): at most 120 kB on home, sign-in, docs and the dashboards.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

const GOAL_KB = 120;
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

type Manifest = { entryJSFiles?: Record<string, string[]> };

function readManifest(nextDir: string, route: string): Manifest | null {
  const dir = route === "/" ? "" : route.slice(1);
  const file = path.join(nextDir, "server", "app", dir, "page_client-reference-manifest.js");
  if (!existsSync(file)) return null;
  const sandbox = { globalThis: {} as Record<string, unknown> };
  vm.runInNewContext(readFileSync(file, "utf8"), sandbox);
  const all = sandbox.globalThis.__RSC_MANIFEST as Record<string, Manifest>;
  return all[`${route === "/" ? "" : route}/page`] ?? Object.values(all)[0] ?? null;
}

export function pageWeights(nextDir = path.resolve(".next")) {
  const buildManifest = path.join(nextDir, "build-manifest.json");
  if (!existsSync(buildManifest)) return null;
  const { rootMainFiles } = JSON.parse(readFileSync(buildManifest, "utf8")) as {
    rootMainFiles: string[];
  };
  const sizes = new Map<string, number>();
  const gz = (files: Iterable<string>) => {
    let total = 0;
    for (const f of new Set(files)) {
      const rel = f.replace(/^\/_next\//, "");
      let size = sizes.get(rel);
      if (size === undefined) {
        size = gzipSync(readFileSync(path.join(nextDir, rel)), { level: 9 }).length;
        sizes.set(rel, size);
      }
      total += size;
    }
    return total / 1000;
  };
  const rows: Array<{ name: string; kb: number; goal: boolean }> = [];
  let layoutFiles: string[] = [];
  for (const { route, goal } of routes) {
    const manifest = readManifest(nextDir, route);
    if (!manifest?.entryJSFiles) continue;
    const entries = manifest.entryJSFiles;
    if (layoutFiles.length === 0) layoutFiles = entries["[project]/app/layout"] ?? [];
    rows.push({ name: route, kb: gz([...rootMainFiles, ...Object.values(entries).flat()]), goal });
  }
  return {
    framework: gz(rootMainFiles),
    rootLayout: gz([...rootMainFiles, ...layoutFiles]),
    rows,
  };
}

export function printPageWeights(nextDir?: string): boolean {
  const result = pageWeights(nextDir);
  if (!result) {
    console.log("\npage weight: no production build in .next (run `npm run build` first)");
    return true;
  }
  const { framework, rootLayout, rows } = result;
  console.log("\nFirst Load JS (gzip kB) per route, from .next");
  console.log(
    `${"route".padEnd(22)}${"kB".padStart(8)}${"× framework".padStart(13)}${"+ over layout".padStart(15)}  goal`,
  );
  console.log(
    `${"(framework)".padEnd(22)}${framework.toFixed(1).padStart(8)}${"1.00×".padStart(13)}`,
  );
  console.log(
    `${"(empty page: layout)".padEnd(22)}${rootLayout.toFixed(1).padStart(8)}${`${(rootLayout / framework).toFixed(2)}×`.padStart(13)}${"0.0".padStart(15)}`,
  );
  let ok = true;
  for (const r of rows) {
    const within = r.kb <= GOAL_KB;
    if (r.goal && !within) ok = false;
    console.log(
      `${r.name.padEnd(22)}${r.kb.toFixed(1).padStart(8)}${`${(r.kb / framework).toFixed(2)}×`.padStart(13)}${(r.kb - rootLayout).toFixed(1).padStart(15)}  ${r.goal ? (within ? `≤ ${GOAL_KB} ✓` : `> ${GOAL_KB} ✗`) : ""}`,
    );
  }
  return ok;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ok = printPageWeights(process.argv[2]);
  if (!ok) process.exitCode = 1;
}
