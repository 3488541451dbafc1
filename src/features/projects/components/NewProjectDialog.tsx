import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { Template } from '@contract/projects';
import { useState } from 'react';
import { errorMessage } from '@/api';
import { AppDialog } from '@/components/AppDialog';
import { useCreateProjectMutation } from '../api/createProject';
import { CREATE_PROJECT_FALLBACK } from '../model/project';
import { NO_TEMPLATE_LABEL, TEMPLATE_FIELD_LABEL, templateOptions } from '../model/templates';

export const NEW_PROJECT_HINT =
  'A good project name is the location or purpose of the field survey, e.g. "Tree survey Vienna".';

export interface NewProjectDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Workspace the project is created in. */
  namespace: string;
  onCreated: (name: string) => void;
  /** Community templates the project may start from; the field shows only when there are some. */
  templates?: readonly Template[];
}

/**
 * The persistent 'New project' dialog (spec 001 §2, §5): the name is trimmed and required; the
 * project may start from a community template (its files become the project's first version).
 */
export function NewProjectDialog({
  opened,
  onClose,
  namespace,
  onCreated,
  templates = [],
}: NewProjectDialogProps) {
  const [name, setName] = useState('');
  const [template, setTemplate] = useState<string | null>(null);
  const create = useCreateProjectMutation();
  const trimmed = name.trim();

  const reset = () => {
    setName('');
    setTemplate(null);
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = () => {
    if (!trimmed) return;
    create.mutate(
      { namespace, name: trimmed, template },
      {
        onSuccess: () => {
          reset();
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
          {templates.length > 0 && (
            <Select
              label={TEMPLATE_FIELD_LABEL}
              data={templateOptions(templates)}
              placeholder={NO_TEMPLATE_LABEL}
              value={template}
              onChange={setTemplate}
              clearable
              comboboxProps={{ withinPortal: false }}
            />
          )}
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
