import { isNull, lte, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";

// Short leases kept in a timestamp column, on the database's clock (never an app server's):
// who takes one sets the column to its end, to the millisecond (so that the value round-trips
// through a JS Date and its holder can give back exactly its own), and it is free once null or
// past.

/** The end of a lease of `ms` from now. */
export const leaseEnd = (ms: number): SQL =>
  sql`date_trunc('milliseconds', now() + ${ms} * interval '1 millisecond')`;

/** The lease in `column` is free: never taken, given back, or ended. */
export const leaseFree = (column: SQLWrapper): SQL | undefined =>
  or(isNull(column), lte(column, sql`now()`));
