import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { AppDialog } from './AppDialog';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title?: ReactNode;
  children?: ReactNode;
  /** @default 'Ok' */
  confirmText?: string;
  /** @default 'Cancel' */
  cancelText?: string;
  /** Text the user must type before confirming (e.g. the project name). */
  typedConfirmation?: string;
  /** Label of the typed confirmation field. @default 'Type to confirm' */
  typedLabel?: string;
  loading?: boolean;
  danger?: boolean;
}

type BodyProps = Omit<ConfirmDialogProps, 'opened' | 'title'>;

/** The dialog body; it unmounts with the closed dialog, so the typed text starts empty each time. */
function ConfirmBody({
  onClose,
  onConfirm,
  children,
  confirmText = 'Ok',
  cancelText = 'Cancel',
  typedConfirmation,
  typedLabel = 'Type to confirm',
  loading = false,
  danger = false,
}: BodyProps) {
  const [typed, setTyped] = useState('');
  const matches = typedConfirmation === undefined || typed === typedConfirmation;
  return (
    <Stack>
      {typeof children === 'string' ? <Text>{children}</Text> : children}
      {typedConfirmation !== undefined && (
        <TextInput
          label={typedLabel}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          data-autofocus
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {cancelText}
        </Button>
        <Button
          color={danger ? 'red' : undefined}
          disabled={!matches}
          loading={loading}
          onClick={onConfirm}
        >
          {confirmText}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Confirmation with an optional typed confirmation (spec 001 §2 "Other dialogs"): default texts
 * Ok / Cancel; with `typedConfirmation` the confirm button stays disabled until it is typed.
 */
export function ConfirmDialog({ opened, title, ...body }: ConfirmDialogProps) {
  return (
    <AppDialog opened={opened} onClose={body.onClose} title={title}>
      <ConfirmBody {...body} />
    </AppDialog>
  );
}
