import { Badge, Group } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { SidebarLink } from './SidebarLink';

export interface OutboxEntryProps {
  count: number;
  /** Landed uploads to check (they did not do all that was asked). */
  notices?: number;
  active: boolean;
  onNavigate?: () => void;
}

/**
 * The sidebar's 'Outbox' entry (issue 18) with the number of uploads waiting in this browser,
 * and a mark while landed uploads are left to check (issue 31). Loaded only when there are
 * some, so the first screens stay within their budget.
 */
export function OutboxEntry({ count, notices = 0, active, onNavigate }: OutboxEntryProps) {
  return (
    <SidebarLink
      to="/outbox"
      label="Outbox"
      leftSection={<IconInbox size={20} stroke={1.6} />}
      rightSection={
        <Group gap={4} wrap="nowrap">
          {count > 0 && (
            <Badge size="sm" circle aria-label={`${count} uploads`}>
              {count}
            </Badge>
          )}
          {notices > 0 && (
            <Badge size="sm" circle color="yellow" aria-label={`${notices} to check`}>
              !
            </Badge>
          )}
        </Group>
      }
      active={active}
      onClick={onNavigate}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}
