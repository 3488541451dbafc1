import { ActionIcon, Menu } from '@mantine/core';
import { IconBook, IconHelpCircle, IconMessages } from '@tabler/icons-react';

export interface HelpMenuProps {
  /** Documentation address from GET /config `docs_url`. */
  docsUrl?: string;
  /** Community chat address; the entry is disabled while unknown. */
  communityUrl?: string;
}

export function HelpMenu({ docsUrl, communityUrl }: HelpMenuProps) {
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Help">
          <IconHelpCircle size={22} stroke={1.6} />
        </ActionIcon>
      </Menu.Target>
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
