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
      "lib/deals.ts": `import { getDb } from "@/db/client";\nexport const deals = getDb;\n`,
      "db/client.ts": "export const getDb = () => null;\n",
    });
    expect(checkBoundaries(root)).toEqual([
      "components/card.tsx is a client component, but db/client.ts is database code: components/card.tsx → lib/deals.ts → db/client.ts",
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
