import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { appUrl, dataDir, env } from "@/lib/env";
import { lockDataDir } from "./data-dir-lock";
import * as schema from "./schema";

// One database handle per process. postgres.js when DATABASE_URL is set (production,
// CI); otherwise PGlite — real Postgres compiled to WASM — on disk under .data/, with
// the committed migrations applied on open so `npm run dev` needs no setup.

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; query functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export const migrationsFolder = path.resolve("db/migrations");

type Handle = { db: Db; close: () => Promise<void>; driver: "postgres" | "pglite" };

const globalForDb = globalThis as unknown as { __milestoneDb?: Promise<Handle> };

async function openPostgres(url: string): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
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

/** Where PGlite keeps its files when DATABASE_URL is unset. */
export function pgliteLocation(e = env()): string {
  return e.PGLITE_DIR ?? path.join(dataDir(e), "pglite");
}

function open(): Promise<Handle> {
  const e = env();
  if (e.DATABASE_URL) return openPostgres(e.DATABASE_URL);
  // The app server says where it answers, so a CLI can hand it work instead of opening
  // the database itself (npm run reconcile).
  const isServer = Boolean(e.NEXT_RUNTIME);
  return openPglite(pgliteLocation(e), isServer ? { appUrl: appUrl(e) } : {});
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
