import { ActionIcon } from '@mantine/core';
import { IconHelpCircle } from '@tabler/icons-react';
import { lazyMenu } from '@/components/lazyMenu';

export interface HelpMenuProps {
  /** Documentation address from GET /config `docs_url`. */
  docsUrl?: string;
  /** Community chat address; the entry is disabled while unknown. */
  communityUrl?: string;
}

/** The menu's code loads when it is first opened (issue 8's bundle budget). */
const LazyHelpMenu = lazyMenu<HelpMenuProps>(
  async () => (await import('./HelpMenuDropdown')).HelpMenuDropdown,
);

export function HelpMenu(props: HelpMenuProps) {
  return (
    <LazyHelpMenu
      {...props}
      target={
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Help">
          <IconHelpCircle size={22} stroke={1.6} />
        </ActionIcon>
      }
    />
  );
}
