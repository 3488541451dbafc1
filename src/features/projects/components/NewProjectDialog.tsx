import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/api';
import { AppDialog } from '@/components/AppDialog';
import { useCreateProjectMutation } from '../api/createProject';
import { CREATE_PROJECT_FALLBACK } from '../model/project';

export const NEW_PROJECT_HINT =
  'A good project name is the location or purpose of the field survey, e.g. "Tree survey Vienna".';

export interface NewProjectDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Workspace the project is created in. */
  namespace: string;
  onCreated: (name: string) => void;
}

/** The persistent 'New project' dialog (spec 001 §2, §5): the name is trimmed and required. */
export function NewProjectDialog({ opened, onClose, namespace, onCreated }: NewProjectDialogProps) {
  const [name, setName] = useState('');
  const create = useCreateProjectMutation();
  const trimmed = name.trim();

  const close = () => {
    setName('');
    create.reset();
    onClose();
  };
  const submit = () => {
    if (!trimmed) return;
    create.mutate(
      { namespace, name: trimmed },
      {
        onSuccess: () => {
          setName('');
          create.reset();
          onCreated(trimmed);
        },
      },
    );
  };

  return (
    <AppDialog opened={opened} onClose={close} title="New project" persistent>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {NEW_PROJECT_HINT}
          </Text>
          <TextInput
            label="Project name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={create.isError ? errorMessage(create.error, CREATE_PROJECT_FALLBACK) : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!trimmed} loading={create.isPending}>
              Create project
            </Button>
          </Group>
        </Stack>
      </form>
    </AppDialog>
  );
}
