/**
 * Database.snapshot on PGlite without a statement while none has run since the last one.
 *
 * PGlite is the database engine inside this process, and only this process opens its folder
 * (DATA_DIR/pglite.lock). Every statement reaches the engine through the instance's
 * `execProtocolRawSync` (queries, exec, transactions, the startup packet: PGlite 0.5 runs the
 * backend's main loop nowhere else), so counting the protocol messages sent there tells
 * whether anything at all ran. The snapshot can only change when a transaction ends, which
 * takes a message; while the count is the one right after a snapshot statement that ran with
 * no other message in between, a new snapshot statement would answer the same text, and is
 * skipped.
 */
import type { PGlite } from '@electric-sql/pglite';

/** The statement of Database.snapshot (the text form of the statement's own snapshot). */
export const SNAPSHOT_QUERY = 'select pg_current_snapshot()::text as snapshot';

/** Reads the snapshot with the simple query protocol (cheaper than the extended one). */
async function readSnapshot(client: PGlite): Promise<string> {
  const [result] = await client.exec(SNAPSHOT_QUERY);
  return (result!.rows[0] as { snapshot: string }).snapshot;
}

/**
 * A snapshot reader for `client`; call it before anything else uses the client (it measures
 * how many messages one snapshot statement sends).
 */
export async function pgliteSnapshots(client: PGlite): Promise<() => Promise<string>> {
  let messages = 0;
  const send = client.execProtocolRawSync.bind(client);
  client.execProtocolRawSync = (message: Uint8Array) => {
    messages++;
    return send(message);
  };
  const start = messages;
  await readSnapshot(client);
  const perRead = messages - start;

  let known: { snapshot: string; messages: number } | null = null;
  return async () => {
    if (known !== null && known.messages === messages) return known.snapshot;
    const before = messages;
    const snapshot = await readSnapshot(client);
    // Remembered only when no other message ran between `before` and the end of this read.
    known = perRead > 0 && messages === before + perRead ? { snapshot, messages } : null;
    return snapshot;
  };
}
