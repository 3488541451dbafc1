import { Badge } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { SidebarLink } from './SidebarLink';

export interface OutboxEntryProps {
  count: number;
  active: boolean;
  onNavigate?: () => void;
}

/**
 * The sidebar's 'Outbox' entry (issue 18) with the number of uploads waiting in this browser.
 * Loaded only when there are some, so the first screens stay within their budget.
 */
export function OutboxEntry({ count, active, onNavigate }: OutboxEntryProps) {
  return (
    <SidebarLink
      to="/outbox"
      label="Outbox"
      leftSection={<IconInbox size={20} stroke={1.6} />}
      rightSection={
        <Badge size="sm" circle aria-label={`${count} uploads`}>
          {count}
        </Badge>
      }
      active={active}
      onClick={onNavigate}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}
