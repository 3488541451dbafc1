import { Suspense, lazy, useEffect } from 'react';
import { bareCount } from '@/db/bare';
import { useEditSyncWanted, wantEditSync } from '../sync/demand';

const EditSyncRunner = lazy(() =>
  import('./EditSyncRunner').then((module) => ({ default: module.EditSyncRunner })),
);

/** The store the queued edits are in (src/db/db.ts, version 5). */
export const EDITS_STORE = 'featureEdits';

/**
 * Mounted once in the app shell for a signed-in user (issue 34): the edit sender loads only
 * when this browser holds queued edits (checked once with the bare IndexedDB API, which never
 * creates the database) or an edit is saved, so nothing is sent and nothing loads otherwise.
 */
export function EditSyncHost() {
  const wanted = useEditSyncWanted();
  useEffect(() => {
    let active = true;
    void bareCount(EDITS_STORE).then((answer) => {
      if (active && answer.state === 'done' && answer.value > 0) wantEditSync();
    });
    return () => {
      active = false;
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <EditSyncRunner />
    </Suspense>
  );
}
