import { ThemeIcon } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash, type Icon } from '@tabler/icons-react';
import type { ChangeType } from '../model/changeset';

const LOOKS: Record<ChangeType, { icon: Icon; color: string }> = {
  insert: { icon: IconPlus, color: 'green' },
  update: { icon: IconPencil, color: 'orange' },
  delete: { icon: IconTrash, color: 'red' },
};

/** The change-type icon of a changeset row, named 'insert', 'update' or 'delete'. */
export function ChangeTypeIcon({ type }: { type: ChangeType }) {
  const { icon: Component, color } = LOOKS[type];
  return (
    <ThemeIcon
      role="img"
      aria-label={type}
      title={type}
      data-change={type}
      color={color}
      variant="light"
      radius="xl"
      size="md"
    >
      <Component size={16} stroke={1.8} aria-hidden />
    </ThemeIcon>
  );
}
