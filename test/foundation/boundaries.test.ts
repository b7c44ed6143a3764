import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkBoundaries } from "@/scripts/check-boundaries";

// The import rules `npm run lint` enforces (scripts/check-boundaries.ts), on a small tree
// made for the test and on the repository itself.

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "boundaries-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("import boundaries", () => {
  it("the repository keeps them", () => {
    expect(checkBoundaries()).toEqual([]);
  });

  it("a client component reaching the database through lib/ is named with the chain", () => {
    const root = tree({
      "components/card.tsx": `"use client";\nimport { deals } from "@/lib/deals";\nexport const x = deals;\n`,
      "lib/deals.ts": `import { listDeals } from "@/db/queries/deals";\nexport const deals = listDeals;\n`,
      "db/queries/deals.ts": "export const listDeals = () => [];\n",
    });
    expect(checkBoundaries(root)).toEqual([
      "components/card.tsx is a client component, but db/queries/deals.ts is database code: components/card.tsx → lib/deals.ts → db/queries/deals.ts",
    ]);
  });

  it("type-only imports, server components and browser-safe lib modules are fine", () => {
    const root = tree({
      "components/card.tsx": `"use client";\nimport type { Deal } from "@/db/schema";\nimport { type Row, format } from "@/lib/format";\nimport { type Only } from "@/lib/server";\nexport const x = format;\n`,
      "components/banner.tsx": `import { env } from "@/lib/env";\nexport const y = env;\n`,
      "lib/format.ts":
        "export type Row = number;\nexport const format = (n: number) => String(n);\n",
      "lib/server.ts": `import { readFileSync } from "node:fs";\nexport type Only = string;\nexport const r = readFileSync;\n`,
      "lib/env.ts": "export const env = () => ({});\n",
      "db/schema.ts": "export type Deal = { id: string };\n",
    });
    expect(checkBoundaries(root)).toEqual([]);
  });

  it("layers: lib never imports app or components, db never imports lib", () => {
    const root = tree({
      "lib/a.ts": `import { B } from "@/components/b";\nexport const a = B;\n`,
      "components/b.tsx": "export const B = 1;\n",
      "db/queries/q.ts": `import { a } from "@/lib/a";\nexport const q = a;\n`,
    });
    expect(checkBoundaries(root)).toEqual([
      "lib/a.ts imports components/b.tsx: lib/ must not depend on app/ or components/",
      "db/queries/q.ts imports lib/a.ts: db/ must not depend on lib/",
    ]);
  });

  it("SQL stays in db/: no drizzle-orm values, table objects or relational queries elsewhere", () => {
    const schema = `import { pgTable } from "drizzle-orm/pg-core";\nexport const deals = pgTable("deals", {});\nexport const dealStatuses = ["open"] as const;\nexport type Deal = { id: string };\n`;
    const root = tree({
      "db/schema.ts": schema,
      "db/queries/deals.ts": `import { eq, sql } from "drizzle-orm";\nimport { deals } from "@/db/schema";\nexport const q = [eq, sql, deals];\n`,
      "lib/inline.ts": `import { and, eq as equals } from "drizzle-orm";\nexport const x = [and, equals];\n`,
      "lib/tables.ts": `import { type Deal, dealStatuses, deals } from "@/db/schema";\nexport const t = [deals, dealStatuses];\nexport type D = Deal;\n`,
      "app/page.tsx": `export async function load(db: any) {\n  return db.query.deals.findMany();\n}\n`,
      "lib/fine.ts": `import type { SQL } from "drizzle-orm";\nimport type { Deal } from "@/db/schema";\nimport { dealStatuses } from "@/db/schema";\nimport { q } from "@/db/queries/deals";\nexport type S = SQL | Deal;\nexport const f = [q, dealStatuses];\n`,
    });
    expect(checkBoundaries(root).sort()).toEqual([
      "app/page.tsx runs a relational query (db.query.…): SQL belongs in db/queries/",
      "lib/inline.ts imports and, eq from drizzle-orm: SQL belongs in db/queries/ (call a query function there)",
      "lib/tables.ts imports the table deals from db/schema.ts: SQL belongs in db/queries/ (import the row types with `import type`)",
    ]);
  });

  it("the database handle comes from lib/db.ts, not db/client.ts", () => {
    const root = tree({
      "db/client.ts": "export const getDb = () => null;\nexport type Db = null;\n",
      "lib/db.ts": `import { getDb } from "@/db/client";\nexport { getDb };\n`,
      "app/page.tsx": `import { type Db, getDb } from "@/db/client";\nexport const p = getDb;\nexport type D = Db;\n`,
      "app/ok.tsx": `import type { Db } from "@/db/client";\nimport { getDb } from "@/lib/db";\nexport const o = getDb;\nexport type D = Db;\n`,
    });
    expect(checkBoundaries(root)).toEqual([
      "app/page.tsx imports getDb from db/client.ts: take the database from @/lib/db (it supplies the settings)",
    ]);
  });

  it("a server-only package reached from the browser is refused", () => {
    const root = tree({
      "app/page-client.tsx": `'use client'\nimport { cookies } from "@/lib/cookies";\nexport const c = cookies;\n`,
      "lib/cookies.ts": `import { cookies } from "next/headers";\nexport { cookies };\n`,
    });
    expect(checkBoundaries(root)).toEqual([
      "app/page-client.tsx is a client component, but lib/cookies.ts imports next/headers: app/page-client.tsx → lib/cookies.ts",
    ]);
  });
});
