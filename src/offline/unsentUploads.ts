/**
 * How many uploads this browser still has to send: every record of Dexie's uploads table is
 * queued, running, waiting for the network, retrying or failed and retryable (finished and
 * cancelled uploads are removed), and each project with field edits not sent yet (issue 34:
 * they go up as one version per project). Signing out deletes them (privateData.ts), so
 * sign-out asks first when there are any. The database is loaded on first use.
 */
import { loadDb } from '@/db/lazy';

/** The number of uploads not sent yet; 0 when storage cannot be read. */
export async function countUnsentUploads(): Promise<number> {
  try {
    const db = await loadDb();
    const edits = await db.featureEdits.toArray();
    return (await db.uploads.count()) + new Set(edits.map((row) => row.projectPath)).size;
  } catch {
    return 0;
  }
}
