import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The disclosure rule's migration (db/migrations/*_disclosure_rule.sql) on a database that already has deals: those keep the
// terms they were made with (rule off, with the reason saying so), while a deal inserted
// afterwards gets the rule on by default; and the check refuses a rule off without a reason.
// Replays the committed migrations on an in-memory PGlite of its own (standalone: the
// suite's shared database is already at the newest migration).

const dir = path.join(import.meta.dirname, "../../db/migrations");
const journal = JSON.parse(readFileSync(path.join(dir, "meta/_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};

async function apply(db: PGlite, tag: string): Promise<void> {
  const text = readFileSync(path.join(dir, `${tag}.sql`), "utf8");
  for (const statement of text.split("--> statement-breakpoint")) await db.exec(statement);
}

const db = new PGlite();
const disclosure = journal.entries.find((e) => e.tag.endsWith("_disclosure_rule"));
const before = journal.entries.filter((e) => disclosure && e.idx < disclosure.idx);

beforeAll(async () => {
  for (const e of before) await apply(db, e.tag);
  await db.exec(`
    insert into users (id, issuer, subject, email, profile_type)
      values ('00000000-0000-4000-8000-000000000001', 'test', 'brand', 'brand@example.com', 'organization');
    insert into deals (id, brand_id, title, budget_units, status)
      values ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-000000000001', 'Funded before the rule', 10000000, 'open');
  `);
  if (!disclosure) throw new Error("the disclosure_rule migration is not in the journal");
  await apply(db, disclosure.tag);
}, 120_000);

afterAll(() => db.close());

describe("the disclosure_rule migration", () => {
  it("leaves a deal made before it off, saying why", async () => {
    const { rows } = await db.query<{ required: boolean; reason: string | null }>(
      `select disclosure_required as required, disclosure_off_reason as reason from deals
        where id = '00000000-0000-4000-8000-0000000000d1'`,
    );
    expect(rows[0]?.required).toBe(false);
    expect(rows[0]?.reason).toMatch(/^Made before Milestone checked disclosure/);
  });

  it("turns the rule on for a deal made after it", async () => {
    const { rows } = await db.query<{ required: boolean; reason: string | null }>(
      `insert into deals (brand_id, title, budget_units)
         values ('00000000-0000-4000-8000-000000000001', 'Made after the rule', 5000000)
       returning disclosure_required as required, disclosure_off_reason as reason`,
    );
    expect(rows[0]).toEqual({ required: true, reason: null });
  });

  it("refuses a rule off without a reason", async () => {
    await expect(
      db.query(
        `insert into deals (brand_id, title, budget_units, disclosure_required)
           values ('00000000-0000-4000-8000-000000000001', 'Silently off', 5000000, false)`,
      ),
    ).rejects.toThrow(/deals_disclosure_check/);
  });
});
