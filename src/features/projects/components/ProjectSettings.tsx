import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/api';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { TitledSection } from '@/components/TitledSection';
import { notifyError } from '@/lib/notify';
import { OfflineReason } from '@/offline/components/OfflineReason';
import { useOnline } from '@/offline/useOnline';
import { useScheduleDeleteMutation } from '../api/scheduleDelete';
import { useUpdateProjectVisibilityMutation } from '../api/updateProjectSettings';
import { REMOVE_PROJECT_FALLBACK, SAVE_SETTINGS_FALLBACK } from '../model/project';
import type { ProjectDetail } from '@contract/projects';

export interface ProjectSettingsProps {
  project: Pick<ProjectDetail, 'id' | 'name' | 'namespace' | 'public'>;
  /** Called once the project is scheduled for deletion. */
  onDeleted: () => void;
}

/** The Settings tab (spec 001 §2, §4, §5): visibility and deletion, each confirmed. */
export function ProjectSettings({ project, onDeleted }: ProjectSettingsProps) {
  const [confirming, setConfirming] = useState<'visibility' | 'delete' | null>(null);
  const visibility = useUpdateProjectVisibilityMutation();
  const remove = useScheduleDeleteMutation();
  const isPublic = project.public;
  const close = () => setConfirming(null);
  const online = useOnline();

  return (
    <Stack>
      <TitledSection
        title={isPublic ? 'Public project' : 'Private project'}
        actions={
          <OfflineReason offline={!online}>
            <Button
              variant="default"
              disabled={!online}
              onClick={() => setConfirming('visibility')}
            >
              {isPublic ? 'Make private' : 'Make public'}
            </Button>
          </OfflineReason>
        }
      >
        <Text size="sm" c="dimmed">
          {isPublic
            ? 'Anyone can see and download this project.'
            : 'Only members of the project can see it.'}
        </Text>
      </TitledSection>
      <TitledSection
        title="Delete project"
        actions={
          <OfflineReason offline={!online}>
            <Button color="red" disabled={!online} onClick={() => setConfirming('delete')}>
              Delete project
            </Button>
          </OfflineReason>
        }
      >
        <Text size="sm" c="dimmed">
          All files and versions of the project will be removed.
        </Text>
      </TitledSection>
      <ConfirmDialog
        opened={confirming === 'visibility'}
        onClose={close}
        title={isPublic ? 'Make project private?' : 'Make project public?'}
        loading={visibility.isPending}
        onConfirm={() =>
          visibility.mutate(
            { namespace: project.namespace, name: project.name, public: !isPublic },
            {
              onSuccess: close,
              onError: (error) => notifyError(errorMessage(error, SAVE_SETTINGS_FALLBACK)),
            },
          )
        }
      >
        {isPublic
          ? 'Only members of the project will be able to see it.'
          : 'Anyone will be able to see and download the project.'}
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirming === 'delete'}
        onClose={close}
        title="Delete project?"
        danger
        confirmText="Delete project"
        typedConfirmation={project.name}
        typedLabel="Type the project name to confirm"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(project.id, {
            onSuccess: () => {
              close();
              onDeleted();
            },
            onError: (error) => notifyError(errorMessage(error, REMOVE_PROJECT_FALLBACK)),
          })
        }
      >
        <Group gap={4}>
          <Text>This removes</Text>
          <Text fw={600}>
            {project.namespace}/{project.name}
          </Text>
          <Text>and all its files.</Text>
        </Group>
      </ConfirmDialog>
    </Stack>
  );
}
