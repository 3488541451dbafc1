/**
 * The queued edits as React state, kept current by Dexie's live queries (a save, a batch that
 * landed, another tab's change: IndexedDB is the one source of truth).
 */
import { useEffect, useState } from 'react';
import type { QueuedBatch, FeatureEdit, WaymarkDatabase } from '@/db/db';
import { loadDb } from '@/db/lazy';

function useLive<T>(query: (db: WaymarkDatabase) => Promise<T>, key: string): T | undefined {
  const [value, setValue] = useState<{ key: string; value: T } | undefined>(undefined);
  useEffect(() => {
    let active = true;
    let stop: (() => void) | undefined;
    // Dexie's live queries load with the database, not with the Map tab's code.
    void Promise.all([loadDb(), import('dexie')]).then(([db, { liveQuery }]) => {
      if (!active) return;
      const subscription = liveQuery(() => query(db)).subscribe({
        next: (next) => setValue({ key, value: next }),
        error: () => undefined,
      });
      stop = () => subscription.unsubscribe();
    });
    return () => {
      active = false;
      stop?.();
    };
    // The query is named by its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return value?.key === key ? value.value : undefined;
}

/** A project's queued rows ('namespace/name'); undefined until read. */
export function useProjectEdits(projectPath: string): FeatureEdit[] | undefined {
  return useLive(
    (db) => db.featureEdits.where('projectPath').equals(projectPath).toArray(),
    `project:${projectPath}`,
  );
}

export interface QueuedEdits {
  rows: FeatureEdit[];
  batches: QueuedBatch[];
}

/** Every queued row and batch of this browser; undefined until read. */
export function useQueuedEdits(): QueuedEdits | undefined {
  return useLive(
    async (db) => ({
      rows: await db.featureEdits.orderBy('createdAt').toArray(),
      batches: await db.editBatches.toArray(),
    }),
    'all',
  );
}
