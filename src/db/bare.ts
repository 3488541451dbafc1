/**
 * Reads and writes of single rows of the 'waymark' database with the bare IndexedDB API, so the
 * first screens never wait for Dexie (~30 KB gzipped, issue 8's bundle budget). Only a database
 * Dexie already created is used: one that does not exist is never created here (its creation
 * is rolled back) and the caller is told so ('missing'), as it is when the store is not there
 * yet (an older version); Dexie then creates or upgrades it. The names are those of ./db.ts.
 */
import { DATABASE_NAME } from './names';

export type BareAnswer<T> =
  | { state: 'done'; value: T }
  /** The database, or the store in it, does not exist yet. */
  | { state: 'missing' }
  /** IndexedDB failed (e.g. storage disabled). */
  | { state: 'failed' };

/** One request on the store, and the answer made of its result once the transaction is done. */
function run<R, T>(
  storeName: string,
  mode: IDBTransactionMode,
  request: (store: IDBObjectStore) => IDBRequest<R>,
  answerOf: (result: R) => T,
  name: string,
): Promise<BareAnswer<T>> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') {
      resolve({ state: 'failed' });
      return;
    }
    let opening: IDBOpenDBRequest;
    try {
      opening = indexedDB.open(name);
    } catch {
      resolve({ state: 'failed' });
      return;
    }
    let missing = false;
    opening.onupgradeneeded = () => {
      // Opening without a version upgrades only a database that does not exist: undo that.
      missing = true;
      opening.transaction?.abort();
    };
    opening.onerror = (event) => {
      event.preventDefault();
      resolve(missing ? { state: 'missing' } : { state: 'failed' });
    };
    opening.onsuccess = () => {
      const db = opening.result;
      // Never hold up Dexie's own upgrade of the database.
      db.onversionchange = () => db.close();
      let answer: BareAnswer<T> = { state: 'failed' };
      try {
        if (!db.objectStoreNames.contains(storeName)) {
          db.close();
          resolve({ state: 'missing' });
          return;
        }
        const transaction = db.transaction(storeName, mode);
        transaction.oncomplete = () => {
          db.close();
          resolve(answer);
        };
        transaction.onerror = transaction.onabort = () => {
          db.close();
          resolve({ state: 'failed' });
        };
        const one = request(transaction.objectStore(storeName));
        one.onsuccess = () => {
          answer = { state: 'done', value: answerOf(one.result) };
        };
      } catch {
        db.close();
        resolve({ state: 'failed' });
      }
    };
  });
}

/** The row with primary key `key` (undefined when there is none). */
export function bareGet<T>(
  storeName: string,
  key: IDBValidKey,
  name: string = DATABASE_NAME,
): Promise<BareAnswer<T | undefined>> {
  return run(
    storeName,
    'readonly',
    (store) => store.get(key),
    (row) => row as T | undefined,
    name,
  );
}

/** Puts `value` (the store's key is inside it, as Dexie declares it). */
export function barePut(
  storeName: string,
  value: unknown,
  name: string = DATABASE_NAME,
): Promise<BareAnswer<true>> {
  return run(
    storeName,
    'readwrite',
    (store) => store.put(value),
    () => true as const,
    name,
  );
}

/** Deletes the row with primary key `key`. */
export function bareDelete(
  storeName: string,
  key: IDBValidKey,
  name: string = DATABASE_NAME,
): Promise<BareAnswer<true>> {
  return run(
    storeName,
    'readwrite',
    (store) => store.delete(key),
    () => true as const,
    name,
  );
}

/** How many rows the store holds. */
export function bareCount(
  storeName: string,
  name: string = DATABASE_NAME,
): Promise<BareAnswer<number>> {
  return run(
    storeName,
    'readonly',
    (store) => store.count(),
    (count) => count,
    name,
  );
}
