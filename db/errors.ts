// Postgres error helpers that work for both drivers: drizzle wraps driver errors in
// DrizzleQueryError (the original is `cause`); postgres.js names the constraint
// `constraint_name`, PGlite `constraint`.

type PgErrorLike = { code?: unknown; constraint?: unknown; constraint_name?: unknown };

function pgError(err: unknown): PgErrorLike | null {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const candidate = e as PgErrorLike & { cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code))
      return candidate;
    e = candidate.cause;
  }
  return null;
}

/** True for a unique-constraint violation (23505), optionally on one named index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pg = pgError(err);
  if (pg?.code !== "23505") return false;
  if (!constraint) return true;
  return pg.constraint === constraint || pg.constraint_name === constraint;
}

/** True for a not-null violation (23502). */
export function isNotNullViolation(err: unknown): boolean {
  return pgError(err)?.code === "23502";
}
