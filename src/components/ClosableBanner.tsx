import { CloseButton, Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { useClosedElement } from '@/lib/useClosedElement';

export interface ClosableBannerProps {
  /** Stable id under which the dismissal is remembered on this device. */
  id: string;
  /** Accessible name of the banner region. */
  label: string;
  /** Name of the close button. @default 'Dismiss' */
  closeLabel?: string;
  children: ReactNode;
}

/** A banner the user can close for good on this device (spec 000 §2 "closed elements"). */
export function ClosableBanner({
  id,
  label,
  closeLabel = 'Dismiss',
  children,
}: ClosableBannerProps) {
  const { isOpen, close } = useClosedElement(id);
  if (!isOpen) return null;
  return (
    <Paper
      component="aside"
      aria-label={label}
      withBorder
      radius="md"
      p="md"
      mt="lg"
      bg="var(--mantine-color-gray-0)"
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
        <CloseButton aria-label={closeLabel} onClick={() => void close()} />
      </Group>
    </Paper>
  );
}
