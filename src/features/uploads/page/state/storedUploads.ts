/**
 * Whether this browser keeps an upload (queued, running or failed) to resume, read with the
 * bare IndexedDB API: loading Dexie, the engine and its worker on every page just to find the
 * queue empty would cost the first screens ~75 KB gzipped (issue 8's bundle budget). Names are
 * those of src/db/db.ts (the 'waymark' database, version 2 table 'uploads'); a test keeps them
 * in step with it.
 */
import { bareCount } from '@/db/bare';
import { DATABASE_NAME } from '@/db/names';

export const UPLOADS_DATABASE = DATABASE_NAME;
export const UPLOADS_STORE = 'uploads';

/**
 * Resolves true when the database holds at least one upload. A database that does not exist
 * yet is not created (bareCount rolls its creation back); when IndexedDB cannot be read, it
 * answers true, so the engine loads and decides as it always did.
 */
export async function hasStoredUploads(name: string = UPLOADS_DATABASE): Promise<boolean> {
  if (typeof indexedDB === 'undefined') return false;
  const answer = await bareCount(UPLOADS_STORE, name);
  if (answer.state === 'done') return answer.value > 0;
  return answer.state === 'failed';
}
