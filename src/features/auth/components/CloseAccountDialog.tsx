import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { AppDialog } from '@/components/AppDialog';
import { errorMessage } from '@/api';
import { browser } from '@/lib/browser';
import { notifyError, notifySuccessAfterReload } from '@/lib/notify';
import {
  ACCOUNT_CLOSED,
  CLOSE_ACCOUNT_FALLBACK,
  useCloseAccountMutation,
} from '../api/closeAccount';
import { canCloseAccount } from '../model/account';

export interface CloseAccountDialogProps {
  opened: boolean;
  onClose: () => void;
  username: string;
}

/**
 * 'Close account' (spec 000 §2, §4 and §5): enabled once the own username is typed exactly;
 * on success the user is cleared and the app reloads at '/'.
 */
export function CloseAccountDialog({ opened, onClose, username }: CloseAccountDialogProps) {
  return (
    <AppDialog opened={opened} onClose={onClose} title="Close account">
      {opened && <CloseAccountForm username={username} onCancel={onClose} />}
    </AppDialog>
  );
}

function CloseAccountForm({ username, onCancel }: { username: string; onCancel: () => void }) {
  const [typed, setTyped] = useState('');
  const closeAccount = useCloseAccountMutation();
  const allowed = canCloseAccount(typed, username);

  const confirm = () => {
    if (!allowed) return;
    closeAccount.mutate(undefined, {
      onSuccess: () => {
        notifySuccessAfterReload(ACCOUNT_CLOSED);
        browser.reloadTo('/');
      },
      onError: (error) => notifyError(errorMessage(error, CLOSE_ACCOUNT_FALLBACK)),
    });
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        confirm();
      }}
      noValidate
    >
      <Stack gap="md">
        <Text size="sm">
          Closing your account removes your access to all projects. This cannot be undone.
        </Text>
        <TextInput
          label={`Type your username ${username} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={!allowed} loading={closeAccount.isPending}>
            Close account
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
