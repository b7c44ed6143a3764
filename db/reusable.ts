import { sql } from "drizzle-orm";
import type { DbOrTx } from "./client";

// Statements built once per process instead of on every call.
//
// drizzle builds a query's SQL text from its builder each time it runs: walking every
// selected column, every condition, then flattening the tree into text and parameters. On
// the settle path that was a fifth of the process's CPU (bench/throughput.ts with
// BENCH_PROFILE): ~0.5 ms per statement, ~20 statements per settle. A prepared query
// (`.prepare()` with `sql.placeholder`s) keeps the built text, but drizzle binds it to the
// handle it was built on, and a transaction is a new handle each time. `reusable` builds
// the statement once per database (per drizzle dialect object) and runs it on whatever
// handle it is given — the process's database or a transaction — by giving the built query
// that handle's connection.
//
// This leans on two drizzle internals that are stable across its postgres-js and PGlite
// drivers: a handle's `session.client` (the driver connection, a transaction's own) and a
// prepared query's `client` field, which its `execute` uses. test/db/reusable.test.ts
// checks, on the suite's database (PostgreSQL in CI, PGlite without TEST_DATABASE_URL), that
// a reused statement runs inside the caller's transaction (it rolls back with it) and
// outside one; if either internal were missing it throws at once
// rather than running on the wrong connection.

type Executable = { execute(values?: Record<string, unknown>): Promise<unknown> };
type Internals = { dialect?: object; session?: { client?: unknown } };

/**
 * A statement built by `build` on first use (per database) and run with `values` for its
 * `sql.placeholder`s. `build` must return `query.prepare(name)`; the name only marks it as
 * a prepared statement (postgres.js prepares every statement here anyway, see client.ts).
 */
export function reusable<Q extends Executable, V extends Record<string, unknown>>(
  build: (db: DbOrTx) => Q,
): (db: DbOrTx, values: V) => ReturnType<Q["execute"]> {
  const built = new WeakMap<object, Q>();
  return (db, values) => {
    const { dialect, session } = db as unknown as Internals;
    const client = session?.client;
    if (!dialect || !client) throw new Error("reusable: not a drizzle database or transaction");
    let query = built.get(dialect);
    if (!query) {
      query = build(db);
      if (!("client" in query)) throw new Error("reusable: the prepared query has no client");
      built.set(dialect, query);
    }
    const bound = Object.create(query, { client: { value: client } }) as Q;
    return bound.execute(values) as ReturnType<Q["execute"]>;
  };
}

// Placeholders where a reusable statement's values go.
export const placeholder = sql.placeholder;
/** A placeholder where `.set()` wants a value (it takes SQL, not a bare placeholder). */
export const setTo = (name: string) => sql`${placeholder(name)}`;
/** A timestamp placeholder, given the caller's clock as an ISO string (see `nowIso`). */
export const timestampAt = (name: string) => sql`${placeholder(name)}::timestamptz`;
/** The caller's clock for a `timestampAt` placeholder, as updatedAt has always been written. */
export const nowIso = () => new Date().toISOString();
