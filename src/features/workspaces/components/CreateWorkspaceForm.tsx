import { Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { reportFormError } from '@/lib/formErrors';
import { CREATE_WORKSPACE_FALLBACK, createWorkspace } from '../api/createWorkspace';
import type { Workspace } from '../api/workspaces';

export interface CreateWorkspaceFormProps {
  /** Called with the new workspace (the user owns it). */
  onCreated: (workspace: Workspace) => void;
}

/** 'Workspace name' and 'Create workspace' (where the server's configuration allows it). */
export function CreateWorkspaceForm({ onCreated }: CreateWorkspaceFormProps) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: createWorkspace,
    onSuccess: (workspace) => onCreated(workspace),
    onError: (error) => reportFormError(error, ['name'], setErrors, CREATE_WORKSPACE_FALLBACK),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    create.mutate({ name: name.trim() });
  };
  return (
    <form onSubmit={submit} style={{ width: '100%' }}>
      <Stack gap="sm">
        <TextInput
          label="Workspace name"
          required
          value={name}
          error={errors.name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Button type="submit" loading={create.isPending} disabled={name.trim() === ''}>
          Create workspace
        </Button>
      </Stack>
    </form>
  );
}
