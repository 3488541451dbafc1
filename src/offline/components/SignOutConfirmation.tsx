/**
 * Sign-out that asks first when uploads have not been sent yet (signing out deletes them from
 * this device, see ../privateData.ts). Without such uploads it signs out at once.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { lazyWhenOpened } from '@/components/lazyWhenOpened';
import {
  KEEP_SIGNED_IN,
  SIGN_OUT_AND_DELETE,
  UNSENT_UPLOADS_TITLE,
  unsentUploadsText,
} from '../texts';
import { countUnsentUploads } from '../unsentUploads';

/** The dialog's code loads when it is first needed (issue 8's bundle budget). */
const AppDialog = lazyWhenOpened(async () => (await import('@/components/AppDialog')).AppDialog);

export interface ConfirmedSignOut {
  /** Signs out, or first asks when uploads are pending. */
  requestSignOut: () => void;
  /** The confirmation dialog; render it once. */
  dialog: ReactNode;
}

export function useConfirmedSignOut(
  signOut: () => void,
  countUnsent: () => Promise<number> = countUnsentUploads,
): ConfirmedSignOut {
  const [unsent, setUnsent] = useState(0);
  const asking = useRef(false);

  const requestSignOut = useCallback(() => {
    if (asking.current) return;
    asking.current = true;
    void countUnsent()
      .catch(() => 0)
      .then((count) => {
        asking.current = false;
        if (count > 0) setUnsent(count);
        else signOut();
      });
  }, [countUnsent, signOut]);

  const close = () => setUnsent(0);
  const confirm = () => {
    setUnsent(0);
    signOut();
  };

  const dialog = (
    <AppDialog opened={unsent > 0} onClose={close} title={UNSENT_UPLOADS_TITLE}>
      <Stack gap="lg">
        <Text>{unsentUploadsText(unsent)}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} data-autofocus>
            {KEEP_SIGNED_IN}
          </Button>
          <Button color="red" onClick={confirm}>
            {SIGN_OUT_AND_DELETE}
          </Button>
        </Group>
      </Stack>
    </AppDialog>
  );

  return { requestSignOut, dialog };
}
