import { ActionIcon } from '@mantine/core';
import { IconArrowsSort } from '@tabler/icons-react';
import { lazyMenu } from './lazyMenu';

export interface SortOption<V extends string = string> {
  value: V;
  label: string;
}

export interface SortMenuProps<V extends string = string> {
  options: readonly SortOption<V>[];
  value: V;
  onChange: (value: V) => void;
  /** Name of the icon button. @default 'Sort' */
  label?: string;
}

/** The menu's code loads when it is first opened (issue 8's bundle budget). */
const LazySortMenu = lazyMenu<SortMenuProps>(
  async () => (await import('./SortMenuDropdown')).SortMenuDropdown,
);

/** A popup menu of sort orders behind a sort icon (spec 000 §2); the current one is checked. */
export function SortMenu<V extends string = string>({
  options,
  value,
  onChange,
  label = 'Sort',
}: SortMenuProps<V>) {
  return (
    <LazySortMenu
      options={options}
      value={value}
      onChange={onChange as (value: string) => void}
      target={
        <ActionIcon variant="default" size="lg" aria-label={label}>
          <IconArrowsSort size={18} stroke={1.6} />
        </ActionIcon>
      }
    />
  );
}
