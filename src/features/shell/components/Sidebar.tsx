import { Stack } from '@mantine/core';
import { IconFolders, IconLayoutDashboard, IconUsers } from '@tabler/icons-react';
import { useRouterState } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { useOutboxCount, useOutboxNoticeCount } from '@/offline/outboxCount';
import { SidebarLink } from './SidebarLink';

const OutboxEntry = lazy(() =>
  import('./OutboxEntry').then((module) => ({ default: module.OutboxEntry })),
);

export interface SidebarProps {
  /** Called when an entry is clicked (the overlay drawer closes itself with it). */
  onNavigate?: () => void;
  /** The current workspace when the user administers it: adds its 'Members' entry. */
  membersOf?: string | null;
}

const ENTRIES = [
  { to: '/dashboard', label: 'Dashboard', icon: IconLayoutDashboard },
  { to: '/projects', label: 'Projects', icon: IconFolders },
] as const;

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/**
 * Sidebar entries (spec 000 §2): a link with icon and title each, highlighted when active; for a
 * workspace's admins and owners also 'Members' of the current workspace.
 */
export function Sidebar({ onNavigate, membersOf }: SidebarProps) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const entries: { to: string; label: string; icon: typeof IconUsers }[] = [...ENTRIES];
  if (membersOf) {
    entries.push({
      to: `/workspaces/${encodeURIComponent(membersOf)}/members`,
      label: 'Members',
      icon: IconUsers,
    });
  }
  // Uploads queued, running or failed in this browser (issue 18): the entry shows only then.
  const outbox = useOutboxCount();
  // Landed uploads that did not do all that was asked stay there to read (issue 31).
  const notices = useOutboxNoticeCount();
  return (
    <nav aria-label="Main">
      <Stack gap={4}>
        {entries.map(({ to, label, icon: Icon }) => (
          <SidebarLink
            key={to}
            to={to}
            label={label}
            leftSection={<Icon size={20} stroke={1.6} />}
            active={isActive(pathname, to)}
            onClick={onNavigate}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        ))}
        {(outbox > 0 || notices > 0) && (
          <Suspense fallback={null}>
            <OutboxEntry
              count={outbox}
              notices={notices}
              active={isActive(pathname, '/outbox')}
              onNavigate={onNavigate}
            />
          </Suspense>
        )}
      </Stack>
    </nav>
  );
}
