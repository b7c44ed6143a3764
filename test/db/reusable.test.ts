import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { reusable } from "@/db/reusable";
import { signerNonces } from "@/db/schema";
import { getDb } from "@/lib/db";

// db/reusable.ts runs a statement built once on whatever handle it is given. These check
// that it really runs on the handle it is given: inside a transaction it sees that
// transaction's writes and rolls back with it; outside, it sees what is committed. (Not
// read outside while the transaction is open: PGlite has one connection, and would wait.)
// They run on the suite's database: PostgreSQL with TEST_DATABASE_URL (CI), PGlite without.

let builds = 0;
const insertNonce = reusable((db) => {
  builds++;
  return db
    .insert(signerNonces)
    .values({ chainId: 1, address: sql.placeholder("address"), nextNonce: 7 })
    .returning()
    .prepare("test_insert_nonce");
});
const findNonce = reusable((db) =>
  db
    .select()
    .from(signerNonces)
    .where(eq(signerNonces.address, sql.placeholder("address")))
    .prepare("test_find_nonce"),
);

class Rollback extends Error {}

describe("reusable statements", () => {
  const handle = () => getDb();
  it("run inside the caller's transaction: its writes are seen there and roll back with it", async () => {
    const db = await handle();
    const address = `0x${randomUUID().replaceAll("-", "")}`;
    const seen = await db
      .transaction(async (tx) => {
        const [row] = await insertNonce(tx, { address });
        expect(row?.nextNonce).toBe(7);
        const inside = await findNonce(tx, { address });
        throw new Rollback(String(inside.length));
      })
      .catch((err) => (err instanceof Rollback ? Number(err.message) : Promise.reject(err)));
    expect(seen).toBe(1);
    expect(await findNonce(db, { address })).toEqual([]);
  });

  it("run outside a transaction, committed, with rows mapped as drizzle maps them", async () => {
    const db = await handle();
    const address = `0x${randomUUID().replaceAll("-", "")}`;
    await insertNonce(db, { address });
    const [row] = await findNonce(db, { address });
    expect(row).toMatchObject({ chainId: 1, address, nextNonce: 7 });
    expect(row?.updatedAt).toBeInstanceOf(Date);
  });
});

it("is built once per database, not per call or per transaction", async () => {
  const before = builds;
  const db = await getDb();
  for (let i = 0; i < 3; i++) {
    const address = `0x${randomUUID().replaceAll("-", "")}`;
    await db.transaction((tx) => insertNonce(tx, { address }));
    await insertNonce(db, { address: `${address}1` });
  }
  // Built at most once more here (if this database had not run it yet), never per call.
  expect(builds - before).toBeLessThanOrEqual(1);
});

it("refuses a handle that is not a drizzle database", () => {
  expect(() => findNonce({} as Db, { address: "0x" })).toThrow(/not a drizzle database/);
});
