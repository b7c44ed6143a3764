import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { type ErrorCode, statusOf } from "@/lib/errors";

// Keeps the README honest where a claim can be checked against the code mechanically: the
// configuration table against lib/env.ts's schema (names and stated defaults), the npm scripts
// it names against package.json, the flags it passes to them against the scripts' parseArgs
// options, the files and folders it names, the API routes (with their methods) and pages, the
// `<status> <code>` errors against lib/errors.ts, and its own #anchors. The README is parsed
// (fenced blocks, list items, table rows, code spans) and the code is read through the
// TypeScript parser, so a claim is matched exactly, not by a loose search.

const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

// ---------------------------------------------------------------------------------------------
// The README, parsed

type Unit = { text: string; section: string };
type Fence = { lines: string[]; section: string };

/**
 * Prose units (a paragraph, a list item, a table row or a heading, with its continuation
 * lines joined) and fenced code blocks, each with the `##` section it sits in.
 */
function parseMarkdown(source: string): { units: Unit[]; fences: Fence[]; lines: string[] } {
  const lines = source.split("\n");
  const units: Unit[] = [];
  const fences: Fence[] = [];
  let section = "";
  let current: string[] | null = null;
  let fence: string[] | null = null;
  const flush = () => {
    if (current) units.push({ text: current.join("\n"), section });
    current = null;
  };
  for (const line of lines) {
    if (/^\s*```/.test(line)) {
      if (fence) {
        fences.push({ lines: fence, section });
        fence = null;
      } else {
        flush();
        fence = [];
      }
      continue;
    }
    if (fence) {
      fence.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      if ((heading[1] as string).length <= 2) section = heading[2] as string;
      units.push({ text: line, section });
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    if (/^\s*(?:[-*+]|\d+\.)\s/.test(line) || /^\s*\|/.test(line)) flush();
    current ??= [];
    current.push(line);
  }
  flush();
  return { units, fences, lines };
}

/** The inline code spans of a piece of prose, their whitespace collapsed as Markdown does. */
function codeSpans(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g))
    out.push((m[2] as string).replace(/\s+/g, " ").trim());
  return out;
}

/** The cells of a table row, split on unescaped pipes (`\|` stays inside its cell). */
function cells(row: string): string[] {
  const parts = row
    .trim()
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
  return parts.slice(1, -1);
}

/** The body rows of the table in `section` whose header starts with `firstHeader`. */
function table(lines: string[], section: string, firstHeader: string): string[][] {
  let inSection = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const heading = /^(#{1,2})\s+(.*)$/.exec(line);
    if (heading) inSection = heading[2] === section;
    if (!inSection || !line.startsWith("|") || cells(line)[0] !== firstHeader) continue;
    const rows: string[][] = [];
    for (let j = i + 2; j < lines.length && (lines[j] as string).startsWith("|"); j++)
      rows.push(cells(lines[j] as string));
    return rows;
  }
  throw new Error(`README: no table headed "${firstHeader}" under "## ${section}"`);
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

const md = parseMarkdown(readme);
const prose = md.units.map((u) => u.text).join("\n");
const spans = md.units.flatMap((u) => codeSpans(u.text));
const fencedLines = md.fences.flatMap((f) => f.lines);

const difference = <T>(a: Iterable<T>, b: Set<T>) => [...new Set(a)].filter((x) => !b.has(x));

// ---------------------------------------------------------------------------------------------
// The code, parsed

function parse(file: string): ts.SourceFile {
  const text = readFileSync(path.join(root, file), "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

function propertyName(p: ts.ObjectLiteralElementLike): string | undefined {
  if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) return undefined;
  const name = p.name;
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

function property(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of obj.properties)
    if (ts.isPropertyAssignment(p) && propertyName(p) === name) return p.initializer;
  return undefined;
}

/** The keys of `const schema = z.object({ … })` in lib/env.ts: every variable it reads. */
function envSchemaKeys(): string[] {
  const keys: string[] = [];
  walk(parse("lib/env.ts"), (n) => {
    if (!ts.isVariableDeclaration(n) || !ts.isIdentifier(n.name) || n.name.text !== "schema")
      return;
    const init = n.initializer;
    if (!init || !ts.isCallExpression(init) || init.expression.getText() !== "z.object") return;
    const shape = init.arguments[0];
    if (shape && ts.isObjectLiteralExpression(shape))
      for (const p of shape.properties) {
        const name = propertyName(p);
        if (name) keys.push(name);
      }
  });
  return keys;
}

/** The options of every `parseArgs({ options: { … } })` in a file, with their defaults. */
function parseArgsOptions(file: string): Map<string, string | undefined> {
  const options = new Map<string, string | undefined>();
  walk(parse(file), (n) => {
    if (!ts.isCallExpression(n) || !ts.isIdentifier(n.expression)) return;
    if (n.expression.text !== "parseArgs") return;
    const config = n.arguments[0];
    if (!config || !ts.isObjectLiteralExpression(config)) return;
    const opts = property(config, "options");
    if (!opts || !ts.isObjectLiteralExpression(opts)) return;
    for (const p of opts.properties) {
      const name = propertyName(p);
      if (!name || !ts.isPropertyAssignment(p)) continue;
      const spec = p.initializer;
      const def = ts.isObjectLiteralExpression(spec) ? property(spec, "default") : undefined;
      options.set(
        name,
        def === undefined ? undefined : ts.isStringLiteral(def) ? def.text : def.getText(),
      );
    }
  });
  return options;
}

/** String literals shaped like a flag (`"--build"`) in a file: flags read from argv by hand. */
function flagLiterals(file: string): string[] {
  const out: string[] = [];
  walk(parse(file), (n) => {
    if (
      (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) &&
      /^--[a-z][a-z0-9-]*$/.test(n.text)
    )
      out.push(n.text.slice(2));
  });
  return out;
}

/** The file an npm script runs, when it is one `tsx <file>` (the scripts that take flags). */
function scriptFile(name: string): string | undefined {
  return /^tsx (\S+\.ts)$/.exec(pkg.scripts[name] ?? "")?.[1];
}

const flagNames = (text: string) =>
  [...text.matchAll(/(?:^|\s)--([a-z][a-z0-9-]*)/g)].map((m) => m[1] as string);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${entry}`;
    if (entry === "node_modules" || entry.startsWith(".next")) continue;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(rel, ...filesUnder(rel));
    else out.push(rel);
  }
  return out;
}

// Routes and pages: app/**/route.ts and app/**/page.tsx, as segment lists.
const appFiles = filesUnder("app");
const segmentsOf = (file: string) =>
  path
    .dirname(file)
    .split("/")
    .slice(1)
    .filter((s) => !/^\(.*\)$/.test(s));
const routeFiles = appFiles.filter((f) => f.endsWith("/route.ts"));
const pageFiles = appFiles.filter((f) => /\/page\.tsx?$/.test(f));

/** The HTTP methods a route file implements (not the ones it answers 405 to). */
function implementedMethods(file: string): Set<string> {
  const methods = new Set<string>();
  for (const st of parse(file).statements) {
    const exported = ts.canHaveModifiers(st)
      ? ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isFunctionDeclaration(st) && st.name) methods.add(st.name.text);
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name)) methods.add(d.name.text); // a destructured 405 set is not
  }
  return methods;
}

/** `:id`, `<hash>` and `[id]` are parameters; anything else must match literally. */
function segmentsMatch(wanted: string[], actual: string[]): boolean {
  return (
    wanted.length === actual.length &&
    wanted.every((w, i) => {
      const a = actual[i] as string;
      const param = /^\[.+\]$/.test(a);
      return /^(:.+|<.+>)$/.test(w) ? param : !param && w === a;
    })
  );
}

/** Expands `{a,b}` alternatives in a path. */
function expandBraces(p: string): string[] {
  const m = /\{([^{}]+)\}/.exec(p);
  if (!m) return [p];
  return (m[1] as string).split(",").flatMap((alt) => expandBraces(p.replace(m[0], alt.trim())));
}

/** Files matching a repo-relative glob (`*` within a segment, `**` across segments). */
function glob(pattern: string): string[] {
  const fixed = pattern.split("/").filter((s) => !s.includes("*"));
  const base = fixed
    .slice(
      0,
      pattern.split("/").findIndex((s) => s.includes("*")),
    )
    .join("/");
  const re = new RegExp(
    `^${pattern
      .split("**/")
      .map((part) =>
        part
          .split("*")
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^/]*"),
      )
      .join("(?:.*/)?")}$`,
  );
  return existsSync(path.join(root, base)) ? filesUnder(base).filter((f) => re.test(f)) : [];
}

// ---------------------------------------------------------------------------------------------

describe("README", () => {
  describe("configuration table (## Configuration) against lib/env.ts", () => {
    const rows = table(md.lines, "Configuration", "variable").map((row) => ({
      names: codeSpans(row[0] ?? ""),
      defaultCell: row[1] ?? "",
    }));
    const tableVars = rows.flatMap((r) => r.names);
    const schemaKeys = envSchemaKeys();
    /** Read by lib/env.ts but set by the platform, not by whoever configures the app. */
    const notSettings = new Set(["NEXT_RUNTIME"]);

    it("reads the schema and the table", () => {
      expect(schemaKeys.length).toBeGreaterThan(40);
      expect(rows.length).toBeGreaterThan(30);
      expect(tableVars.every((v) => /^[A-Z][A-Z0-9_]*$/.test(v))).toBe(true);
    });

    it("lists every variable of the schema, and only those, once", () => {
      expect(difference(schemaKeys, new Set([...tableVars, ...notSettings]))).toEqual([]);
      expect(difference(tableVars, new Set(schemaKeys))).toEqual([]);
      expect(tableVars.filter((v, i) => tableVars.indexOf(v) !== i)).toEqual([]);
    });

    it("states the schema's default wherever the schema has one, and no other literal", () => {
      const defaults = parseEnv({}) as Record<string, unknown>;
      const problems: string[] = [];
      for (const { names, defaultCell } of rows) {
        // A default given as one code span is a literal claim (`3000`); `$DATA_DIR/pglite` or
        // another variable's name is derived from other settings, and prose is prose.
        const literal = /^`([^`]+)`$/.exec(defaultCell)?.[1];
        const derived =
          literal !== undefined && (literal.includes("$") || tableVars.includes(literal));
        for (const name of names) {
          const actual = defaults[name];
          if (actual !== undefined && literal !== String(actual))
            problems.push(
              `${name}: the README says ${defaultCell}, lib/env.ts defaults to \`${String(actual)}\``,
            );
          if (actual === undefined && literal !== undefined && !derived)
            problems.push(`${name}: the README says ${defaultCell}, lib/env.ts has no default`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("names only environment variables that something reads", () => {
      // Outside the table (bench, browser tests, CI): the name must occur in that code.
      const elsewhere = [
        ...["bench", "e2e", "scripts", "test"].flatMap(filesUnder),
        ".ci/run",
        "playwright.config.ts",
      ]
        .filter((f) => /\.(ts|mjs)$|^\.ci\//.test(f))
        .map((f) => readFileSync(path.join(root, f), "utf8"))
        .join("\n");
      const named = spans.flatMap((s) =>
        [...s.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map((m) => m[0]),
      );
      const known = new Set(schemaKeys);
      const unknown = [...new Set(named)].filter(
        (v) => !known.has(v) && !new RegExp(`\\b${v}\\b`).test(elsewhere),
      );
      expect(named.length).toBeGreaterThan(40);
      expect(unknown).toEqual([]);
    });
  });

  describe("npm scripts and their flags", () => {
    it("names only scripts package.json has", () => {
      const text = [prose, ...fencedLines].join("\n");
      const named = [
        ...[...text.matchAll(/\bnpm\s+run\s+([\w:.-]+)/g)].map((m) => m[1] as string),
        ...[...text.matchAll(/\bnpm\s+(test|start)\b/g)].map((m) => m[1] as string),
      ];
      expect(named.length).toBeGreaterThan(20);
      expect(difference(named, new Set(Object.keys(pkg.scripts)))).toEqual([]);
    });

    it("has one row in the Scripts table for every script of package.json", () => {
      const listed = table(md.lines, "Scripts", "script").flatMap((row) =>
        codeSpans(row[0] ?? "")
          .map((s) => /^npm (?:run )?([\w:-]+)/.exec(s)?.[1])
          .filter((s): s is string => Boolean(s)),
      );
      expect(difference(Object.keys(pkg.scripts), new Set(listed))).toEqual([]);
      expect(difference(listed, new Set(Object.keys(pkg.scripts)))).toEqual([]);
    });

    it("passes `npm run X -- --flag` only flags X's script declares", () => {
      const uses: Array<{ script: string; flag: string }> = [];
      for (const s of spans) {
        const m = /npm run ([\w:-]+) -- (.*)$/.exec(s);
        if (m)
          for (const flag of flagNames(m[2] as string)) uses.push({ script: m[1] as string, flag });
      }
      // In a fenced block, comment lines under a command describe its options.
      for (const f of md.fences) {
        let script: string | undefined;
        for (const line of f.lines) {
          const cmd = /npm run ([\w:-]+)(?: -- (.*))?/.exec(line);
          if (cmd) {
            script = cmd[1];
            for (const flag of flagNames(cmd[2] ?? ""))
              uses.push({ script: script as string, flag });
          } else if (script && /^\s*#/.test(line))
            for (const flag of flagNames(line)) uses.push({ script, flag });
          else script = undefined;
        }
      }
      expect(uses.map((u) => u.script)).toEqual(
        expect.arrayContaining(["dev", "contracts:deploy"]),
      );
      const problems = uses
        .filter(({ script, flag }) => {
          const file = scriptFile(script);
          return !file || !parseArgsOptions(file).has(flag);
        })
        .map(({ script, flag }) => `npm run ${script} -- --${flag}`);
      expect(problems).toEqual([]);
    });

    it("lists exactly the flags of scripts/dev.ts under “Flags of `npm run dev`”", () => {
      const bullet = md.units.find((u) => u.text.startsWith("- **Flags of `npm run dev`**"));
      expect(bullet, "the “Flags of `npm run dev`” bullet").toBeDefined();
      const listed = codeSpans(bullet?.text ?? "").flatMap((s) =>
        s.startsWith("--") || s.startsWith("npm run dev --") ? flagNames(s) : [],
      );
      expect([...new Set(listed)].sort()).toEqual(
        [...parseArgsOptions("scripts/dev.ts").keys()].sort(),
      );
    });

    it("names only flags some script reads (`--flag` code spans anywhere)", () => {
      const scriptFiles = [...filesUnder("scripts"), ...filesUnder("bench")].filter((f) =>
        /\.ts$/.test(f),
      );
      const known = new Set(
        scriptFiles.flatMap((f) => [...parseArgsOptions(f).keys(), ...flagLiterals(f)]),
      );
      const named = spans.filter((s) => /^--?\s?--?[a-z]/.test(s)).flatMap(flagNames);
      expect(named.length).toBeGreaterThan(8);
      expect(difference(named, known)).toEqual([]);
    });

    it("gives the period of npm run dev's scheduled reconcile as scripts/dev.ts does", () => {
      const period = parseArgsOptions("scripts/dev.ts").get("reconcile-every");
      const stated = md.units
        .filter((u) => /reconcile/i.test(u.text))
        .flatMap((u) =>
          [...u.text.replace(/\*\*/g, "").matchAll(/\bevery (\d+) s\b/g)].map((m) => m[1]),
        );
      expect(stated.length).toBeGreaterThan(0);
      expect(new Set(stated)).toEqual(new Set([period]));
    });
  });

  describe("files, routes, pages, errors and links", () => {
    it("names only files and folders that exist", () => {
      const text = [prose, ...fencedLines].join("\n");
      const repoPaths = [
        ...text.matchAll(
          /(?<![\w./@$<-])((?:app|components|db|lib|contracts|scripts|test|e2e|bench|eval|\.ci)\/[\w./*[\]-]*)/g,
        ),
      ].map((m) => (m[1] as string).replace(/\.+$/, ""));
      // Files at the root, named in prose (the layout block lists files of db/ by bare name).
      const rootFiles = [
        ...prose.matchAll(/(?<![\w./@$<-])([\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|mjs|json|sol|md))\b/g),
      ].map((m) => m[1] as string);
      expect(repoPaths.length).toBeGreaterThan(40);
      const missing = [...new Set([...repoPaths, ...rootFiles])].filter((p) =>
        p.includes("*") ? glob(p).length === 0 : !existsSync(path.join(root, p)),
      );
      expect(missing).toEqual([]);
    });

    it("names only API routes that exist, with methods they implement", () => {
      const problems: string[] = [];
      let checked = 0;
      for (const s of spans) {
        const m = /^(?:(GET|HEAD|POST|PUT|PATCH|DELETE) )?(\/api(?:\/[^\s?#]*)?)/.exec(s);
        if (!m) continue;
        const method = m[1];
        for (const p of expandBraces(m[2] as string)) {
          checked++;
          const wanted = p.split("/").slice(1);
          if (wanted.at(-1) === "*" || (!method && wanted.length <= 2)) {
            // A prefix: some route lives under it.
            const prefix = wanted.at(-1) === "*" ? wanted.slice(0, -1) : wanted;
            const under = routeFiles.some((f) =>
              segmentsMatch(prefix, segmentsOf(f).slice(0, prefix.length)),
            );
            if (!under) problems.push(`${s}: no route under ${p}`);
            continue;
          }
          const file = routeFiles.find((f) => segmentsMatch(wanted, segmentsOf(f)));
          if (!file) problems.push(`${s}: no app/${wanted.join("/")}/route.ts`);
          else if (method && !implementedMethods(file).has(method))
            problems.push(`${s}: ${file} does not implement ${method}`);
        }
      }
      expect(checked).toBeGreaterThan(30);
      expect(problems).toEqual([]);
    });

    it("names only pages that exist", () => {
      const systemPaths = new Set(["/usr/bin/chromium"]);
      const pages = spans.filter(
        (s) => /^\/[a-z][^\s]*$/.test(s) && !s.startsWith("/api") && !systemPaths.has(s),
      );
      expect(pages.length).toBeGreaterThan(10);
      const missing = pages.filter((p) => {
        const wanted = p
          .replace(/[?#].*$/, "")
          .split("/")
          .slice(1);
        return !pageFiles.some((f) => segmentsMatch(wanted, segmentsOf(f)));
      });
      expect(missing).toEqual([]);
    });

    it("gives each `<status> <code>` error the status lib/errors.ts maps it to", () => {
      const claims = spans
        .map((s) => /^(\d{3}) ([a-z][a-z_]*)$/.exec(s))
        .filter((m): m is RegExpExecArray => m !== null);
      expect(claims.length).toBeGreaterThan(8);
      const wrong = claims
        .filter((m) => statusOf(m[2] as ErrorCode) !== Number(m[1]))
        .map((m) => `${m[0]} (lib/errors.ts: ${statusOf(m[2] as ErrorCode) ?? "no such code"})`);
      expect(wrong).toEqual([]);
    });

    it("links only to headings it has", () => {
      const anchors = new Set(
        md.units
          .map((u) => /^#{1,6}\s+(.*)$/.exec(u.text)?.[1])
          .filter((h): h is string => Boolean(h))
          .map(slug),
      );
      const links = [...prose.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1] as string);
      expect(links.length).toBeGreaterThan(3);
      expect(difference(links, anchors)).toEqual([]);
    });
  });
});
