import { Button, CopyButton, Group, TextInput, Textarea } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

export interface CopyFieldProps {
  label: string;
  value: string;
  /** A snippet over several lines (the embed code). */
  multiline?: boolean;
}

/** A read-only address or snippet with a button that copies it. */
export function CopyField({ label, value, multiline = false }: CopyFieldProps) {
  const select = (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
    event.currentTarget.select();
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      {multiline ? (
        <Textarea
          label={label}
          value={value}
          readOnly
          autosize
          minRows={3}
          onFocus={select}
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        />
      ) : (
        <TextInput label={label} value={value} readOnly onFocus={select} style={{ flex: 1 }} />
      )}
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            variant="default"
            onClick={copy}
            leftSection={
              copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
            }
            aria-label={`Copy ${label.toLowerCase()}`}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
