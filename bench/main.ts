// npm run bench [-- section …] — every benchmark, or the sections named, one process each.
//   core         bench/run.ts (sender, settle, release, deal list; in process)
//   throughput   bench/throughput.ts (settles/s in process against raw transfers)
//   lists        bench/lists.ts
//   auth         bench/auth-get.ts
//   page-weight  bench/page-weight.ts
//   cold-start   bench/cold-start.ts (spawn of next start to its first answer, vs node:http)
//   deal-page    bench/deal-page.ts (the deal page usable in Chromium, warm, vs the home page)
//   http         bench/http.ts http (settles over HTTP on next start, automine)
//   blocktime    bench/http.ts blocktime (the same on anvil --block-time 2, single and bulk)
//   instances    bench/http.ts instances (one next start against three)
//   trips        bench/http.ts trips (SQL statements, transactions, round trips and JSON-RPC
//                requests next-server sends per settle, automine and --block-time 2)
//   drift        bench/http.ts drift (raw transfers' CPU on anvil before and after the bench's
//                deals: why the raw baseline moves within a run)
// e.g. `npm run bench -- http blocktime`. Stops at the first section that fails.
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const sections: Record<string, string[]> = {
  core: ["bench/run.ts"],
  throughput: ["bench/throughput.ts"],
  lists: ["bench/lists.ts"],
  auth: ["bench/auth-get.ts"],
  "page-weight": ["bench/page-weight.ts"],
  "cold-start": ["bench/cold-start.ts"],
  "deal-page": ["bench/deal-page.ts"],
  http: ["bench/http.ts", "http"],
  blocktime: ["bench/http.ts", "blocktime"],
  instances: ["bench/http.ts", "instances"],
  trips: ["bench/http.ts", "trips"],
  drift: ["bench/http.ts", "drift"],
};

const asked = process.argv.slice(2);
const unknown = asked.filter((s) => !(s in sections));
if (unknown.length) {
  console.error(
    `unknown section ${unknown.join(", ")}; sections: ${Object.keys(sections).join(", ")}`,
  );
  process.exit(2);
}
for (const name of asked.length ? asked : Object.keys(sections)) {
  const res = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), sections[name] as string[], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (res.status !== 0) {
    console.error(`bench ${name} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
}
