import { Menu } from '@mantine/core';
import { IconBook, IconMessages } from '@tabler/icons-react';
import type { LazyMenuTarget } from '@/components/lazyMenu';
import type { HelpMenuProps } from './HelpMenu';

/** The Help menu itself, loaded when it is first opened (HelpMenu). */
export function HelpMenuDropdown({
  docsUrl,
  communityUrl,
  target,
}: HelpMenuProps & LazyMenuTarget) {
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          component="a"
          href={docsUrl || undefined}
          target="_blank"
          rel="noopener noreferrer"
          disabled={!docsUrl}
          leftSection={<IconBook size={18} />}
        >
          Documentation
        </Menu.Item>
        <Menu.Item
          component="a"
          href={communityUrl || undefined}
          target="_blank"
          rel="noopener noreferrer"
          disabled={!communityUrl}
          leftSection={<IconMessages size={18} />}
        >
          Community chat
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
