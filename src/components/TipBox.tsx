import { CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useClosedElement } from '@/lib/useClosedElement';

/** Default tip title: 'Tip from' followed by the product name (spec 000 §2). */
export const TIP_DEFAULT_TITLE = 'Tip from Waymark';

export interface TipBoxProps {
  /** @default 'Tip from Waymark' */
  title?: ReactNode;
  /** Makes the tip closable; the dismissal is remembered on this device under this id. */
  closeId?: string;
  /** Name of the close button. @default 'Dismiss' */
  closeLabel?: string;
  children: ReactNode;
}

/** A highlighted tip with a title. */
export function TipBox({ closeId, ...props }: TipBoxProps) {
  return closeId ? <ClosableTip closeId={closeId} {...props} /> : <Tip {...props} />;
}

function ClosableTip({ closeId, ...props }: TipBoxProps & { closeId: string }) {
  const { isOpen, close } = useClosedElement(closeId);
  if (!isOpen) return null;
  return <Tip {...props} onClose={() => void close()} />;
}

function Tip({
  title = TIP_DEFAULT_TITLE,
  closeLabel = 'Dismiss',
  children,
  onClose,
}: Omit<TipBoxProps, 'closeId'> & { onClose?: () => void }) {
  return (
    <Paper role="note" bg="var(--mantine-color-blue-light)" radius="md" p="md" mb="md">
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <IconBulb size={22} stroke={1.6} color="var(--mantine-color-blue-8)" aria-hidden />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={700} size="sm">
            {title}
          </Text>
          <Text size="sm" component="div">
            {children}
          </Text>
        </Stack>
        {onClose && <CloseButton aria-label={closeLabel} size="sm" onClick={onClose} />}
      </Group>
    </Paper>
  );
}
