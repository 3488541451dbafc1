import { ActionIcon, Menu } from '@mantine/core';
import { IconArrowsSort, IconCheck } from '@tabler/icons-react';

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

/** A popup menu of sort orders behind a sort icon (spec 000 §2); the current one is checked. */
export function SortMenu<V extends string = string>({
  options,
  value,
  onChange,
  label = 'Sort',
}: SortMenuProps<V>) {
  return (
    <Menu position="bottom-end" shadow="md" width={220}>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={label}>
          <IconArrowsSort size={18} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {options.map((option) => {
          const selected = option.value === value;
          return (
            <Menu.Item
              key={option.value}
              onClick={() => onChange(option.value)}
              aria-current={selected || undefined}
              rightSection={selected ? <IconCheck size={16} aria-hidden /> : undefined}
              fw={selected ? 600 : undefined}
            >
              {option.label}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
