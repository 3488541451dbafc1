import { Stack } from '@mantine/core';
import { IconFolders, IconLayoutDashboard } from '@tabler/icons-react';
import { useRouterState } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { useOutboxCount } from '@/offline/outboxCount';
import { SidebarLink } from './SidebarLink';

const OutboxEntry = lazy(() =>
  import('./OutboxEntry').then((module) => ({ default: module.OutboxEntry })),
);

export interface SidebarProps {
  /** Called when an entry is clicked (the overlay drawer closes itself with it). */
  onNavigate?: () => void;
}

const ENTRIES = [
  { to: '/dashboard', label: 'Dashboard', icon: IconLayoutDashboard },
  { to: '/projects', label: 'Projects', icon: IconFolders },
] as const;

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Sidebar entries (spec 000 §2): a link with icon and title each, highlighted when active. */
export function Sidebar({ onNavigate }: SidebarProps) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // Uploads queued, running or failed in this browser (issue 18): the entry shows only then.
  const outbox = useOutboxCount();
  return (
    <nav aria-label="Main">
      <Stack gap={4}>
        {ENTRIES.map(({ to, label, icon: Icon }) => {
          const active = isActive(pathname, to);
          return (
            <SidebarLink
              key={to}
              to={to}
              label={label}
              leftSection={<Icon size={20} stroke={1.6} />}
              active={active}
              onClick={onNavigate}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          );
        })}
        {outbox > 0 && (
          <Suspense fallback={null}>
            <OutboxEntry
              count={outbox}
              active={isActive(pathname, '/outbox')}
              onNavigate={onNavigate}
            />
          </Suspense>
        )}
      </Stack>
    </nav>
  );
}
