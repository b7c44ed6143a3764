import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { lockDataDir } from "./data-dir-lock";
import * as schema from "./schema";

// One database handle per process. postgres.js when a URL is given (DATABASE_URL:
// production, CI); otherwise PGlite — real Postgres compiled to WASM — on disk under .data/,
// with the committed migrations applied on open so `npm run dev` needs no setup.
// db/ reads no settings itself: lib/db.ts hands it a provider (from lib/env.ts) with
// configureDb, asked when the handle is first opened; import getDb from there.

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; query functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export const migrationsFolder = path.resolve("db/migrations");

type Handle = { db: Db; close: () => Promise<void>; driver: "postgres" | "pglite" };

/** What opening the database needs to know. */
export type DbSettings = {
  /** A PostgreSQL URL; when unset, PGlite at `pgliteLocation`. */
  url?: string;
  /** PGlite's data directory, or "memory://". */
  pgliteLocation: string;
  /**
   * Where the app server answers, written into the data directory's lock so a CLI can hand
   * it work instead of opening the database itself (npm run reconcile); unset outside it.
   */
  appUrl?: string;
  /**
   * Runs around every top-level transaction (lib/db.ts: a tracing span per transaction,
   * the "statement group" of the traces); unset, transactions run as they are.
   */
  aroundTransaction?: <T>(run: () => Promise<T>) => Promise<T>;
};

/** Puts `around` around the handle's own transaction() (nested ones are savepoints of it). */
function wrapTransactions(db: Db, around: DbSettings["aroundTransaction"]): Db {
  if (!around) return db;
  const original = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<Db["transaction"]>) =>
    around(() => original(...args))) as Db["transaction"];
  return db;
}

const globalForDb = globalThis as unknown as {
  __milestoneDb?: Promise<Handle>;
  __milestoneDbSettings?: () => DbSettings;
};

/**
 * Says where the database is: `settings` is asked each time the handle is (re)opened, so
 * a change of settings takes effect after closeDb(). Called by lib/db.ts when it loads.
 */
export function configureDb(settings: () => DbSettings): void {
  globalForDb.__milestoneDbSettings = settings;
}

type Sql = import("postgres").Sql;

/**
 * drizzle runs every query it did not name as an unnamed statement, and postgres.js sends
 * an unnamed statement with parameters in two round trips (Parse + Describe, wait for the
 * parameter types, then Bind + Execute) and cannot pipeline it. Run as prepared statements
 * (postgres.js keeps them per connection, keyed by their text) they take one round trip
 * after their first use on a connection, and queries sent together are pipelined. Each
 * distinct text stays prepared for the connection's life: drizzle's texts are a fixed set,
 * except an `inArray` list, one text per list length (bounded by the page sizes). Behind
 * a transaction-mode pooler this needs one that keeps prepared statements (PgBouncer
 * 1.21+ with max_prepared_statements).
 */
function preparing(sql: Sql): Sql {
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === "unsafe")
        return (query: string, params?: unknown[], opts?: { prepare?: boolean }) =>
          // biome-ignore lint/suspicious/noExplicitAny: postgres.js's parameter types
          target.unsafe(query, params as any, { ...opts, prepare: true });
      if (prop === "begin" || prop === "savepoint")
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: Sql) => unknown;
          // biome-ignore lint/suspicious/noExplicitAny: begin/savepoint overloads (savepoint is on a transaction's Sql)
          return (Reflect.get(target, prop) as any)(...args, (tx: Sql) => fn(preparing(tx)));
        };
      return Reflect.get(target, prop);
    },
  });
}

async function openPostgres(url: string): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzle(preparing(client), { schema, casing: "snake_case" }) as unknown as Db;
  return { db, driver: "postgres", close: () => client.end({ timeout: 5 }) };
}

async function openPglite(location: string, lockInfo: { appUrl?: string }): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const inMemory = location === "memory://";
  // One process per data directory (see data-dir-lock.ts); refused before anything opens.
  const unlock = inMemory ? () => {} : lockDataDir(location, lockInfo);
  try {
    const client = inMemory ? new PGlite() : new PGlite(location);
    const pglite = drizzle(client, { schema, casing: "snake_case" });
    await migrate(pglite, { migrationsFolder });
    return {
      db: pglite as unknown as Db,
      driver: "pglite",
      close: () => client.close().finally(unlock),
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** Opens a database handle (not the process-wide one: that is getDb). */
export async function openDb(s: DbSettings): Promise<Handle> {
  const h = s.url
    ? await openPostgres(s.url)
    : await openPglite(s.pgliteLocation, s.appUrl ? { appUrl: s.appUrl } : {});
  return { ...h, db: wrapTransactions(h.db, s.aroundTransaction) };
}

function open(): Promise<Handle> {
  const settings = globalForDb.__milestoneDbSettings;
  if (!settings)
    return Promise.reject(
      new Error("db/client: no database settings; import getDb from @/lib/db, which supplies them"),
    );
  return openDb(settings());
}

async function handle(): Promise<Handle> {
  globalForDb.__milestoneDb ??= open().catch((err) => {
    globalForDb.__milestoneDb = undefined; // let the next call try again
    throw err;
  });
  return globalForDb.__milestoneDb;
}

/** The process-wide database. */
export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

export async function dbDriver(): Promise<Handle["driver"]> {
  return (await handle()).driver;
}

export async function closeDb(): Promise<void> {
  const h = globalForDb.__milestoneDb;
  globalForDb.__milestoneDb = undefined;
  if (h) await (await h).close();
}
