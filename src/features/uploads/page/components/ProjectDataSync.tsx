import { Text } from '@mantine/core';
import { useState, type CSSProperties } from 'react';
import type { ProjectDetail } from '@contract/projects';
import type { ProjectUploads } from '../state/useProjectUploads';
import { usePendingUploads } from '../state/usePendingUploads';
import { ConflictDialog } from './ConflictDialog';
import { DATA_SYNC_EMPTY } from '../../model/texts';
import { DataSyncPanel } from './DataSyncPanel';

const DOCK_PLACEHOLDER: CSSProperties = {
  border: '1px dashed var(--mantine-color-default-border)',
  borderRadius: 'var(--mantine-radius-md)',
};

interface Conflict {
  paths: string[];
  latest: ProjectDetail;
}

/** From this width the panel sits beside the files (the sidebar overlay breakpoint, spec 000 §9). */
export const DATA_SYNC_BESIDE = '(min-width: 75em)';
/** The width of its column there. */
export const DATA_SYNC_COLUMN = '22rem';

/**
 * The project's 'Data Sync' panel and the dialog for versioned files changed on the server.
 * `docked`: in the column beside the files (wide screens); else it floats, collapsed at first.
 */
export function ProjectDataSync({
  uploads,
  docked = false,
}: {
  uploads: ProjectUploads;
  docked?: boolean;
}) {
  const store = usePendingUploads();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const { pending, key } = uploads;
  if (!pending) {
    // The column stays (nothing moves when the first change comes), saying what it is for.
    return docked ? (
      <Text size="sm" c="dimmed" p="md" style={DOCK_PLACEHOLDER}>
        {DATA_SYNC_EMPTY}
      </Text>
    ) : null;
  }

  const update = () => {
    void uploads.prepare().then((result) => {
      if (result.kind === 'conflict') setConflict({ paths: result.paths, latest: result.latest });
    });
  };

  return (
    <>
      <DataSyncPanel
        docked={docked}
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
