/**
 * The SQL statements an app sends, for tests that count them (request costs, the map's
 * access window): every statement goes through the database client's query (or PGlite's
 * exec), wrapped here once per database.
 */
import type { Database } from '../../../server/src/db/database';

type Client = Record<string, unknown>;
type Query = (text: string | { text: string }, ...rest: unknown[]) => Promise<unknown>;

/** Wraps the client's query and exec so each statement is pushed to `statements`. */
function wrapQueries(client: Client, statements: string[], mark = ''): void {
  for (const method of ['query', 'exec'] as const) {
    const original = client[method] as Query | undefined;
    if (!original) continue;
    client[method] = (text: string | { text: string }, ...rest: unknown[]) => {
      // PGlite gets the SQL text; node-postgres (PostgreSQL runs) a query config object.
      statements.push(mark + (typeof text === 'string' ? text : text.text));
      return original.call(client, text, ...rest);
    };
  }
}

/**
 * Starts recording the statements sent to `database`; the returned list fills as they go.
 * With `transactions`, also those sent inside transactions (PGlite's transaction handle, a
 * connection node-postgres' pool gives), each marked with a leading `TX `.
 */
export function recordStatements(
  database: Database,
  options: { transactions?: boolean } = {},
): string[] {
  const statements: string[] = [];
  const client = (database.db as unknown as { $client: Client }).$client;
  wrapQueries(client, statements);
  if (!options.transactions) return statements;
  const transaction = client.transaction as
    ((fn: (tx: Client) => Promise<unknown>, ...rest: unknown[]) => Promise<unknown>) | undefined;
  if (transaction) {
    // PGlite: BEGIN and COMMIT are its own, the statements go through the handle.
    client.transaction = (fn: (tx: Client) => Promise<unknown>, ...rest: unknown[]) =>
      transaction.call(
        client,
        (tx: Client) => {
          wrapQueries(tx, statements, 'TX ');
          return fn(tx);
        },
        ...rest,
      );
  }
  const connect = client.connect as ((...args: unknown[]) => unknown) | undefined;
  if (connect && !transaction) {
    // node-postgres: drizzle runs a transaction on a connection it takes from the pool
    // (connect() without a callback; the pool's own queries pass one) and releases after.
    client.connect = (...args: unknown[]) => {
      if (args.length > 0) return connect.apply(client, args);
      return (connect.call(client) as Promise<Client>).then((connection) => {
        const { query, release } = connection;
        wrapQueries(connection, statements, 'TX ');
        connection.release = (...rest: unknown[]) => {
          connection.query = query;
          connection.release = release;
          return (release as (...a: unknown[]) => unknown).apply(connection, rest);
        };
        return connection;
      });
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
