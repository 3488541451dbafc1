/**
 * Whether this browser keeps an upload (queued, running or failed) to resume, read with the
 * bare IndexedDB API: loading Dexie, the engine and its worker on every page just to find the
 * queue empty would cost the first screens ~75 KB gzipped (issue 8's bundle budget). Names are
 * those of src/db/db.ts (the 'waymark' database, version 2 table 'uploads'); a test keeps them
 * in step with it.
 */
export const UPLOADS_DATABASE = 'waymark';
export const UPLOADS_STORE = 'uploads';

/**
 * Resolves true when the database holds at least one upload. A database that does not exist
 * yet is not created (its creation is rolled back); when IndexedDB cannot be read, it answers
 * true, so the engine loads and decides as it always did.
 */
export function hasStoredUploads(name: string = UPLOADS_DATABASE): Promise<boolean> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') {
      resolve(false);
      return;
    }
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name);
    } catch {
      resolve(true);
      return;
    }
    let missing = false;
    request.onupgradeneeded = () => {
      // Opening without a version upgrades only a database that does not exist: undo that.
      missing = true;
      request.transaction?.abort();
    };
    request.onerror = (event) => {
      event.preventDefault();
      resolve(!missing);
    };
    request.onsuccess = () => {
      const db = request.result;
      // Never hold up Dexie's own upgrade of the database.
      db.onversionchange = () => db.close();
      const done = (answer: boolean) => {
        db.close();
        resolve(answer);
      };
      try {
        if (!db.objectStoreNames.contains(UPLOADS_STORE)) {
          done(false);
          return;
        }
        const count = db.transaction(UPLOADS_STORE, 'readonly').objectStore(UPLOADS_STORE).count();
        count.onsuccess = () => done(count.result > 0);
        count.onerror = () => done(true);
      } catch {
        done(true);
      }
    };
  });
}
