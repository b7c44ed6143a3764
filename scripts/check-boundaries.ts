import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

// The house rules on imports, checked by `npm run lint` (Biome's noRestrictedImports in
// biome.json catches the direct cases in the editor; this follows imports through files):
//   1. Code that runs in the browser — every module a "use client" file reaches through
//      value imports — never reaches db/, lib/env.ts, or a module that needs the server
//      (Node built-ins, next/headers, server-only, database drivers).
//   2. lib/ never imports app/ or components/; db/ never imports lib/ (app → lib → db).
//   3. SQL stays in db/ (db/queries/*.ts): a file under lib/, app/ or components/ builds no
//      query — it imports no value from drizzle-orm (sql, eq, and, inArray, …, drizzle's
//      query-building helpers), no table object of db/schema.ts (what select/insert/update/
//      delete need), and uses no relational query (db.query.<table>.find…). It calls
//      functions of db/queries/ instead, handing them its db or transaction.
//   4. The process-wide database comes from lib/db.ts (which hands db/client.ts its settings
//      from lib/env.ts): app/ and lib/ take getDb, closeDb and dbDriver from @/lib/db, never
//      from db/client.ts, where they fail until lib/db.ts has loaded.
// Type-only imports are erased by the compiler, so they cross boundaries freely (a type
// such as Deal or DbOrTx is fine anywhere on the server).

const repoRoot = path.resolve(import.meta.dirname, "..");
const scanned = ["app", "components", "lib", "db"];
const extensions = [".ts", ".tsx"];

/**
 * Modules that still build queries outside db/ (rule 3): what is left to move into
 * db/queries/. A path ending in "/" would cover a whole folder. Shrink it; never grow it.
 */
export const inlineSqlAllowed: string[] = [];

/** Where query building lives; everything else in these trees must go through it. */
const sqlOutsideDb = ["lib/", "app/", "components/"];

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
  /^sharp$/,
  /^@aws-sdk\//,
];

type Module = {
  file: string;
  client: boolean;
  imports: string[];
  externals: string[];
  /** Value names imported, by specifier (only `import { a, b } from` lists; `*` for others). */
  names: Map<string, string[]>;
  /** Uses drizzle's relational query API (db.query.<table>.findFirst/findMany). */
  relationalQuery: boolean;
};

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (extensions.includes(path.extname(name)) && !name.endsWith(".d.ts")) out.push(full);
  }
}

const importPattern =
  /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|(?:^|[;\n])\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/** The value imports of a file, each with the names it takes (type-only imports left out). */
function valueImports(source: string): { spec: string; names: string[] }[] {
  const specs: { spec: string; names: string[] }[] = [];
  for (const m of stripComments(source).matchAll(importPattern)) {
    if (m[5] || m[6]) {
      specs.push({ spec: (m[5] ?? m[6]) as string, names: ["*"] });
      continue;
    }
    if (m[2]) continue; // import type … / export type …
    const clause = m[3] ?? "";
    const braces = clause.match(/^\{([\s\S]*)\}$/);
    if (braces) {
      const names = (braces[1] ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .filter((n) => !n.startsWith("type "))
        .map((n) => (n.split(/\s+as\s+/)[0] ?? n).trim());
      if (names.length === 0) continue;
      specs.push({ spec: m[4] as string, names });
      continue;
    }
    specs.push({ spec: m[4] as string, names: ["*"] });
  }
  return specs;
}

const relationalQueryPattern = /\.query\.\w+\.find(?:First|Many)\s*\(/;

/** The table objects db/schema.ts exports (pgTable), which query building needs. */
function schemaTables(root: string): Set<string> {
  const file = path.join(root, "db/schema.ts");
  if (!existsSync(file)) return new Set();
  const source = readFileSync(file, "utf8");
  return new Set(
    [...source.matchAll(/export\s+const\s+(\w+)\s*=\s*pgTable\s*[(<]/g)].map((m) => m[1] as string),
  );
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
    const names = new Map<string, string[]>();
    for (const { spec, names: taken } of valueImports(source)) {
      names.set(spec, [...(names.get(spec) ?? []), ...taken]);
      const local = resolveLocal(root, file, spec);
      if (local) imports.push(local);
      else if (!spec.startsWith("@/") && !spec.startsWith(".")) externals.push(spec);
    }
    const relationalQuery = relationalQueryPattern.test(stripComments(source));
    modules.set(file, { file, client, imports, externals, names, relationalQuery });
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
      if (from.startsWith("db/") && target.startsWith("lib/"))
        problems.push(`${from} imports ${target}: db/ must not depend on lib/`);
      if (from.startsWith("components/") && target.startsWith("db/"))
        problems.push(`${from} imports ${target}: components go through lib/, never db/`);
    }
  }

  // Rule 3: query building only in db/.
  const tables = schemaTables(root);
  const allowed = (file: string) =>
    inlineSqlAllowed.some((a) => (a.endsWith("/") ? file.startsWith(a) : file === a));
  for (const mod of modules.values()) {
    const from = rel(mod.file);
    if (!sqlOutsideDb.some((d) => from.startsWith(d)) || allowed(from)) continue;
    for (const [spec, taken] of mod.names) {
      if (spec === "drizzle-orm" || spec.startsWith("drizzle-orm/"))
        problems.push(
          `${from} imports ${taken.join(", ")} from ${spec}: SQL belongs in db/queries/ (call a query function there)`,
        );
      const target = resolveLocal(root, mod.file, spec);
      if (target && rel(target) === "db/schema.ts") {
        const used = taken.filter((n) => n === "*" || tables.has(n));
        if (used.length)
          problems.push(
            `${from} imports the table${used.length > 1 ? "s" : ""} ${used.join(", ")} from db/schema.ts: SQL belongs in db/queries/ (import the row types with \`import type\`)`,
          );
      }
    }
    if (mod.relationalQuery)
      problems.push(`${from} runs a relational query (db.query.…): SQL belongs in db/queries/`);
  }

  // Rule 4: the database handle through lib/db.ts.
  for (const mod of modules.values()) {
    const from = rel(mod.file);
    if (!(from.startsWith("app/") || from.startsWith("lib/")) || from === "lib/db.ts") continue;
    for (const [spec, taken] of mod.names) {
      const target = resolveLocal(root, mod.file, spec);
      if (!target || rel(target) !== "db/client.ts") continue;
      const handle = taken.filter((n) => ["*", "getDb", "closeDb", "dbDriver"].includes(n));
      if (handle.length)
        problems.push(
          `${from} imports ${handle.join(", ")} from db/client.ts: take the database from @/lib/db (it supplies the settings)`,
        );
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
