import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

// `metadata` updates (lib/metadata.ts): the pairs sent are merged into the stored ones in
// the UPDATE itself (no read-modify-write race); a key sent with "" is removed.

/** The column's pairs with `patch` merged in, as an SQL expression for `.set()`. */
export function mergedMetadata(column: AnyPgColumn, patch: Record<string, string>): SQL {
  const withNulls = Object.fromEntries(
    Object.entries(patch).map(([k, v]) => [k, v === "" ? null : v]),
  );
  return sql`jsonb_strip_nulls(${column} || ${JSON.stringify(withNulls)}::jsonb)`;
}
