import { useState } from 'react';
import type { ProjectDetail } from '@/features/projects';
import type { ProjectUploads } from '../state/useProjectUploads';
import { usePendingUploads } from '../state/usePendingUploads';
import { ConflictDialog } from './ConflictDialog';
import { DataSyncPanel } from './DataSyncPanel';

interface Conflict {
  paths: string[];
  latest: ProjectDetail;
}

/** The project's 'Data Sync' panel and the dialog for versioned files changed on the server. */
export function ProjectDataSync({ uploads }: { uploads: ProjectUploads }) {
  const store = usePendingUploads();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const { pending, key } = uploads;
  if (!pending) return null;

  const update = () => {
    void uploads.prepare().then((result) => {
      if (result.kind === 'conflict') setConflict({ paths: result.paths, latest: result.latest });
    });
  };

  return (
    <>
      <DataSyncPanel
        upload={pending}
        progress={uploads.progress}
        blocked={uploads.blocked}
        onUpdate={update}
        onClose={() => {
          setConflict(null);
          store.discard(key);
        }}
      />
      <ConflictDialog
        paths={conflict?.paths ?? null}
        onCancel={() => {
          setConflict(null);
          store.abortStart(key);
        }}
        onOverwrite={() => {
          const latest = conflict?.latest;
          setConflict(null);
          if (latest) void store.overwrite(key, latest);
        }}
      />
    </>
  );
}
