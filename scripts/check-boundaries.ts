import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

// The house rules on imports, checked by `npm run lint` (Biome's noRestrictedImports in
// biome.json catches the direct cases in the editor; this follows imports through files):
//   1. Code that runs in the browser — every module a "use client" file reaches through
//      value imports — never reaches db/, lib/env.ts, or a module that needs the server
//      (Node built-ins, next/headers, server-only, database drivers).
//   2. lib/ never imports app/ or components/; db/ never imports lib/ (app → lib → db).
// Type-only imports are erased by the compiler, so they cross boundaries freely.

const repoRoot = path.resolve(import.meta.dirname, "..");
const scanned = ["app", "components", "lib", "db"];
const extensions = [".ts", ".tsx"];

/** db/ modules that still import lib/ (db/client.ts reads its settings from lib/env.ts). */
const dbToLibAllowed = new Set(["db/client.ts"]);

/** Specifiers a browser module must never load. */
const serverPackages = [
  /^node:/,
  /^(fs|path|crypto|child_process|os|net|tls|worker_threads)$/,
  /^next\/headers$/,
  /^server-only$/,
  /^postgres$/,
  /^@electric-sql\/pglite/,
  /^drizzle-orm/,
  /^next-auth/,
  /^solc$/,
];

type Module = { file: string; client: boolean; imports: string[]; externals: string[] };

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (extensions.includes(path.extname(name)) && !name.endsWith(".d.ts")) out.push(full);
  }
}

const importPattern =
  /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|(?:^|[;\n])\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The value imports of a file (type-only imports and re-exports left out). */
function valueSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specs: string[] = [];
  for (const m of code.matchAll(importPattern)) {
    if (m[5] || m[6]) {
      specs.push((m[5] ?? m[6]) as string);
      continue;
    }
    if (m[2]) continue; // import type … / export type …
    const clause = m[3] ?? "";
    const braces = clause.match(/^\{([\s\S]*)\}$/);
    if (braces) {
      const names = (braces[1] ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    }
    specs.push(m[4] as string);
  }
  return specs;
}

function resolveLocal(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(root, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const candidate of [
    base,
    ...extensions.map((e) => base + e),
    ...extensions.map((e) => path.join(base, `index${e}`)),
  ]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return null;
}

function load(root: string): Map<string, Module> {
  const files: string[] = [];
  for (const dir of scanned)
    if (existsSync(path.join(root, dir))) walk(path.join(root, dir), files);
  const modules = new Map<string, Module>();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const client = /^\s*(?:\/\/[^\n]*\n\s*)*["']use client["']/.test(source);
    const imports: string[] = [];
    const externals: string[] = [];
    for (const spec of valueSpecifiers(source)) {
      const local = resolveLocal(root, file, spec);
      if (local) imports.push(local);
      else if (!spec.startsWith("@/") && !spec.startsWith(".")) externals.push(spec);
    }
    modules.set(file, { file, client, imports, externals });
  }
  return modules;
}

/** Why a module cannot run in a browser, or null when it can (not following imports). */
function serverOnlyReason(mod: Module, rel: (file: string) => string): string | null {
  const r = rel(mod.file);
  if (r.startsWith("db/")) return "is database code";
  if (r === "lib/env.ts") return "reads the server's environment";
  const pkg = mod.externals.find((spec) => serverPackages.some((p) => p.test(spec)));
  return pkg ? `imports ${pkg}` : null;
}

/** The violations under `root` (the repository by default), as sentences. */
export function checkBoundaries(root = repoRoot): string[] {
  const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");
  const modules = load(root);
  const problems: string[] = [];

  for (const mod of modules.values()) {
    const from = rel(mod.file);
    for (const target of mod.imports.map(rel)) {
      if (
        from.startsWith("lib/") &&
        (target.startsWith("app/") || target.startsWith("components/"))
      )
        problems.push(`${from} imports ${target}: lib/ must not depend on app/ or components/`);
      if (from.startsWith("db/") && target.startsWith("lib/") && !dbToLibAllowed.has(from))
        problems.push(`${from} imports ${target}: db/ must not depend on lib/`);
      if (from.startsWith("components/") && target.startsWith("db/"))
        problems.push(`${from} imports ${target}: components go through lib/, never db/`);
    }
  }

  // Breadth-first from every client entry, remembering the path for the message.
  for (const entry of [...modules.values()].filter((m) => m.client)) {
    const via = new Map<string, string | null>([[entry.file, null]]);
    const queue = [entry.file];
    while (queue.length > 0) {
      const file = queue.shift() as string;
      const mod = modules.get(file);
      if (!mod) continue;
      const reason = serverOnlyReason(mod, rel);
      if (reason) {
        const chain: string[] = [];
        for (let f: string | null = file; f; f = via.get(f) ?? null) chain.unshift(rel(f));
        problems.push(
          `${rel(entry.file)} is a client component, but ${rel(file)} ${reason}: ${chain.join(" → ")}`,
        );
        continue;
      }
      for (const next of mod.imports) {
        if (via.has(next)) continue;
        via.set(next, file);
        queue.push(next);
      }
    }
  }
  return [...new Set(problems)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkBoundaries();
  for (const p of problems) console.error(`✗ ${p}`);
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} import boundary violation(s) (scripts/check-boundaries.ts)`,
    );
    process.exit(1);
  }
  console.log("import boundaries: ok");
}
