/**
 * The SQL statements an app sends, for tests that count them (request costs, the map's
 * access window): every statement goes through the database client's query (or PGlite's
 * exec), wrapped here once per database.
 */
import type { Database } from '../../../server/src/db/database';

/** Starts recording the statements sent to `database`; the returned list fills as they go. */
export function recordStatements(database: Database): string[] {
  const statements: string[] = [];
  const client = (database.db as unknown as { $client: Record<string, unknown> }).$client;
  for (const method of ['query', 'exec'] as const) {
    const original = client[method] as (
      text: string | { text: string },
      ...rest: unknown[]
    ) => Promise<unknown>;
    client[method] = (text: string | { text: string }, ...rest: unknown[]) => {
      // PGlite gets the SQL text; node-postgres (PostgreSQL runs) a query config object.
      statements.push(typeof text === 'string' ? text : text.text);
      return original.call(client, text, ...rest);
    };
  }
  return statements;
}

/** The statements `run` sent (the list is emptied first). */
export async function statementsOf(
  statements: string[],
  run: () => Promise<void>,
): Promise<string[]> {
  statements.length = 0;
  await run();
  return [...statements];
}
