import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// drizzle's migrator applies a migration only when its journal `when` is later than the last
// one a database has applied (drizzle-orm/pg-core/dialect.js: `lastDbMigration.created_at <
// migration.folderMillis`). A migration generated on a branch and landed after another with a
// later `when` would be skipped by every existing database (production, a developer's
// .data/pglite) while fresh test databases run it: this keeps the journal in order.

const dir = path.resolve(import.meta.dirname, "../../db/migrations");
const journal = JSON.parse(readFileSync(path.join(dir, "meta/_journal.json"), "utf8")) as {
  entries: Array<{ idx: number; when: number; tag: string }>;
};

describe("the migration journal", () => {
  it("numbers the migrations 0, 1, 2… with a strictly later `when` each, so none is skipped", () => {
    const { entries } = journal;
    entries.forEach((e, i) => {
      expect(e.idx, e.tag).toBe(i);
      expect(e.tag.startsWith(String(i).padStart(4, "0")), e.tag).toBe(true);
      if (i > 0)
        expect(e.when, `${e.tag} must come after ${entries[i - 1]?.tag}`).toBeGreaterThan(
          entries[i - 1]?.when as number,
        );
    });
  });

  it("has one .sql file per entry, and no other", () => {
    const sql = readdirSync(dir).filter((f) => f.endsWith(".sql"));
    expect(sql.sort()).toEqual(journal.entries.map((e) => `${e.tag}.sql`).sort());
  });
});
