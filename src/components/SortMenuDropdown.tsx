import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { LazyMenuTarget } from './lazyMenu';
import type { SortMenuProps } from './SortMenu';

/** The sort menu itself, loaded when it is first opened (SortMenu). */
export function SortMenuDropdown<V extends string = string>({
  options,
  value,
  onChange,
  target,
}: SortMenuProps<V> & LazyMenuTarget) {
  return (
    <Menu position="bottom-end" shadow="md" width={220}>
      <Menu.Target>{target}</Menu.Target>
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
