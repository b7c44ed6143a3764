// npm run lockfile:complete — after `npm install` on a machine whose registry serves only
// this platform's binaries (the machines here), put the other platforms' optional
// binary packages (biome, anvil, next-swc, …) back into package-lock.json.
//
// npm leaves out an optional dependency it cannot fetch, and `npm ci` then refuses the
// lock file as out of sync ("Missing: @biomejs/cli-darwin-arm64@ from lock file"). Each
// entry added here carries the os/cpu/libc it is for, so `npm ci` skips it on other
// platforms without fetching anything, exactly as with a lock written on a full registry.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

const osNames = [
  "android",
  "darwin",
  "linux",
  "win32",
  "freebsd",
  "openbsd",
  "sunos",
  "aix",
  "netbsd",
];
const cpuNames = {
  arm64: "arm64",
  x64: "x64",
  amd64: "x64",
  ia32: "ia32",
  arm: "arm",
  riscv64: "riscv64",
  ppc64: "ppc64",
  s390x: "s390x",
};

function platformOf(name) {
  const tokens = name.split("/").pop().split("-");
  const os = tokens.find((t) => osNames.includes(t));
  const cpu = tokens.map((t) => cpuNames[t]).find(Boolean);
  if (!os || !cpu) return null;
  const libc = os === "linux" ? (tokens.includes("musl") ? "musl" : "glibc") : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    const where = `${path ? `${path}/` : ""}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[where] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) continue; // only pinned platform binaries
    // Keys in the order npm itself writes them, so a later `npm install` leaves no diff.
    packages[hoisted] = {
      version: spec,
      cpu: platform.cpu,
      ...(pkg.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: platform.libc } : {}),
      optional: true,
      os: platform.os,
    };
    added++;
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform package entr${added === 1 ? "y" : "ies"} added`);
