import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/api';
import { AppDialog, DIALOG_WIDTH } from '@/components/AppDialog';
import { notifyError } from '@/lib/notify';
import { useCloneProjectMutation } from '../api/cloneProject';
import { CLONE_PROJECT_FALLBACK } from '../model/project';

export interface CloneProjectDialogProps {
  opened: boolean;
  onClose: () => void;
  namespace: string;
  name: string;
  /** The current workspace, where the clone goes; null disables cloning. */
  targetNamespace: string | null;
  onCloned: (namespace: string, name: string) => void;
}

/** Clone project (spec 001 §2, §5): persistent, 580 wide, the name defaults to the source's. */
export function CloneProjectDialog({
  opened,
  onClose,
  namespace,
  name,
  targetNamespace,
  onCloned,
}: CloneProjectDialogProps) {
  const [newName, setNewName] = useState(name);
  const clone = useCloneProjectMutation();
  const trimmed = newName.trim();

  const close = () => {
    setNewName(name);
    onClose();
  };
  const submit = () => {
    if (!trimmed || !targetNamespace) return;
    clone.mutate(
      { namespace, name, targetNamespace, targetName: trimmed },
      {
        onSuccess: () => onCloned(targetNamespace, trimmed),
        onError: (error) => notifyError(errorMessage(error, CLONE_PROJECT_FALLBACK)),
      },
    );
  };

  return (
    <AppDialog
      opened={opened}
      onClose={close}
      title="Clone project"
      maxWidth={DIALOG_WIDTH.clone}
      persistent
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput
            label="Project name"
            value={newName}
            onChange={(event) => setNewName(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!trimmed || !targetNamespace} loading={clone.isPending}>
              Clone project
            </Button>
          </Group>
        </Stack>
      </form>
    </AppDialog>
  );
}
