import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import type { QueuedBatch, FeatureEdit } from '@/db/db';
import { loadDb } from '@/db/lazy';
import { useOnline } from '@/offline/useOnline';
import { countEdits, describeEdits } from '../model/queue';
import {
  DISCARD_EDITS,
  EDITS_ELSEWHERE,
  EDITS_HEADING,
  EDITS_QUEUED,
  EDITS_SENDING,
  EDITS_WAITING,
  TRY_AGAIN,
  discardQuestion,
  editsRefusedState,
  editsRetrying,
} from '../model/texts';
import { discardEdits, retryBatch } from '../store/editStore';
import { useQueuedEdits } from '../store/useLiveEdits';
import type { ProjectSyncState } from '../sync/editSync';
import { startEditSync, useEditSyncStates, wakeEditSync } from '../sync/instance';

/** At most this many rows are listed per project (the counts say the rest). */
const LISTED_ROWS = 20;

const KIND_TEXT: Record<FeatureEdit['kind'], string> = {
  insert: 'added',
  update: 'changed',
  delete: 'deleted',
};

function stateText(state: ProjectSyncState | undefined, online: boolean): string {
  switch (state?.phase) {
    case 'sending':
      return EDITS_SENDING;
    case 'retrying':
      return editsRetrying(state.error);
    case 'elsewhere':
      return EDITS_ELSEWHERE;
    case 'waiting-network':
      return EDITS_WAITING;
    default:
      return online ? EDITS_QUEUED : EDITS_WAITING;
  }
}

function ProjectEdits({
  projectPath,
  rows,
  batch,
  state,
  online,
}: {
  projectPath: string;
  rows: FeatureEdit[];
  batch: QueuedBatch | undefined;
  state: ProjectSyncState | undefined;
  online: boolean;
}) {
  const [discarding, setDiscarding] = useState(false);
  const refused = batch?.phase === 'refused';
  const listed = rows.slice(0, LISTED_ROWS);
  return (
    <Paper withBorder p="md" component="li" aria-label={`Edits of ${projectPath}`}>
      <Text fw={600} truncate="end">
        {projectPath}
      </Text>
      <Text size="sm">{describeEdits(countEdits(rows))}</Text>
      <Stack
        component="ul"
        gap={0}
        my={6}
        pl="md"
        style={{ fontSize: 'var(--mantine-font-size-sm)' }}
      >
        {listed.map((row) => (
          <li key={row.id}>
            {row.layer} {row.fid < 0 ? '(new)' : row.fid}: {KIND_TEXT[row.kind]}
            {row.photos.length > 0 ? ` · ${row.photos.join(', ')}` : ''}
          </li>
        ))}
      </Stack>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c={refused ? 'red.8' : undefined} role={refused ? 'alert' : undefined}>
          {refused ? editsRefusedState(batch.error ?? '') : stateText(state, online)}
        </Text>
        {refused && (
          <Group gap="xs">
            <Button
              size="compact-sm"
              onClick={() =>
                void loadDb()
                  .then((db) => retryBatch(db, batch.id))
                  .then(wakeEditSync)
              }
            >
              {TRY_AGAIN}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`${DISCARD_EDITS} ${projectPath}`}
              onClick={() => setDiscarding(true)}
            >
              {DISCARD_EDITS}
            </Button>
          </Group>
        )}
      </Group>
      <ConfirmDialog
        opened={discarding}
        onClose={() => setDiscarding(false)}
        onConfirm={() => {
          setDiscarding(false);
          void loadDb().then((db) => discardEdits(db, projectPath, batch?.id));
        }}
        title={DISCARD_EDITS}
        confirmText={DISCARD_EDITS}
        danger
      >
        {discardQuestion(projectPath)}
      </ConfirmDialog>
    </Paper>
  );
}

/**
 * The Outbox's field edits (issue 34): per project, what its queued edits add, change and
 * delete (and their photos), and whether they wait for the network, are being sent, or were
 * refused (with the server's message, 'Try again' and 'Discard'). Read from IndexedDB: it
 * lasts across reloads. Renders nothing while no edit waits.
 */
export function OutboxEdits({ onCount }: { onCount?: (projects: number) => void }) {
  const queued = useQueuedEdits();
  const states = useEditSyncStates();
  const online = useOnline();
  useEffect(() => {
    if (typeof window !== 'undefined') startEditSync();
  }, []);
  const projects = [...new Set((queued?.rows ?? []).map((row) => row.projectPath))];
  useEffect(() => {
    onCount?.(projects.length);
  }, [onCount, projects.length]);
  if (projects.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label={EDITS_HEADING}>
      <Title order={2} fz="h4">
        {EDITS_HEADING}
      </Title>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {projects.map((projectPath) => (
          <ProjectEdits
            key={projectPath}
            projectPath={projectPath}
            rows={(queued?.rows ?? []).filter((row) => row.projectPath === projectPath)}
            batch={(queued?.batches ?? []).find((b) => b.projectPath === projectPath)}
            state={states.get(projectPath)}
            online={online}
          />
        ))}
      </Stack>
    </Stack>
  );
}
