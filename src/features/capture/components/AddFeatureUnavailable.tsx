import { Button, Group, Text } from '@mantine/core';
import { useId } from 'react';
import { ADD_FEATURE } from '../model/texts';

/**
 * 'Add feature' when a user who may edit cannot here: the button disabled and, beside it, why
 * (offline without the forms seen, an older version shown, the forms not loaded). Visible text,
 * not a tooltip: a tablet has no hover.
 */
export function AddFeatureUnavailable({ reason }: { reason: string }) {
  const id = useId();
  return (
    <Group gap={8} wrap="nowrap" align="center">
      <Button variant="default" disabled aria-describedby={id}>
        <span aria-hidden style={{ marginRight: 6 }}>
          +
        </span>
        {ADD_FEATURE}
      </Button>
      <Text id={id} size="xs" c="dimmed" maw={280}>
        {reason}
      </Text>
    </Group>
  );
}
