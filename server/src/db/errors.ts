/** Recognising database errors across PGlite and node-postgres (Drizzle wraps both). */

/** The SQLSTATE of a database error, looking through Drizzle's wrapper. */
export function sqlState(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** A unique constraint or unique index refused the row (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}
