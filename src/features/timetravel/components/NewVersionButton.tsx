import type { NewVersion } from '@contract/restore';
import { Button, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '@/api';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { notifyError, notifySuccess } from '@/lib/notify';
import { OfflineReason } from '@/offline/components/OfflineReason';
import { useOnline } from '@/offline/useOnline';
import { useNewVersionMutation, type NewVersionAction } from '../api/newVersion';
import { newVersionMade } from '../model/texts';

export interface NewVersionButtonProps {
  namespace: string;
  projectName: string;
  /** What the button makes a new version of. */
  action: NewVersionAction;
  /** The button's text (and the dialog's, unless `confirmText` says otherwise). */
  label: string;
  leftSection?: ReactNode;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  color?: ButtonProps['color'];
  /** A confirmation dialog first: its title, text and confirm button. */
  confirm?: { title: string; text: ReactNode; confirmText: string };
  /** Called with the new version after the toast. */
  onDone?: (version: NewVersion) => void;
}

/**
 * A button that makes a new version (restore, keep or discard a conflict file), after a
 * confirmation when asked; says which version it made, or why it failed. Needs the server.
 */
export function NewVersionButton({
  namespace,
  projectName,
  action,
  label,
  leftSection,
  variant = 'default',
  size,
  color,
  confirm,
  onDone,
}: NewVersionButtonProps) {
  const online = useOnline();
  const mutation = useNewVersionMutation(namespace, projectName);
  const [confirming, setConfirming] = useState(false);
  // Through the promise, not mutate's callbacks: the new version can unmount this button (the
  // conflict it resolves is gone) before the answer is handled, and the page must still move on.
  const run = () =>
    void mutation.mutateAsync(action).then(
      (made) => {
        setConfirming(false);
        notifySuccess(newVersionMade(made.version));
        onDone?.(made);
      },
      (error: unknown) => notifyError(errorMessage(error, label)),
    );
  return (
    <>
      <OfflineReason offline={!online}>
        <Button
          variant={variant}
          size={size}
          color={color}
          leftSection={leftSection}
          disabled={!online}
          loading={mutation.isPending && !confirming}
          onClick={() => (confirm ? setConfirming(true) : run())}
        >
          {label}
        </Button>
      </OfflineReason>
      {confirm && (
        <ConfirmDialog
          opened={confirming}
          onClose={() => setConfirming(false)}
          onConfirm={run}
          title={confirm.title}
          confirmText={confirm.confirmText}
          loading={mutation.isPending}
        >
          {confirm.text}
        </ConfirmDialog>
      )}
    </>
  );
}
