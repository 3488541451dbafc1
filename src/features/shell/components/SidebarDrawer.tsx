/** The sidebar as an overlay drawer on narrow screens (spec 000 §9); AppLayout loads it on first open. */
import { Drawer } from '@mantine/core';
import { Logo } from './Logo';
import { Sidebar } from './Sidebar';

export interface SidebarDrawerProps {
  opened: boolean;
  onClose: () => void;
  size: number;
  /** See Sidebar. */
  membersOf?: string | null;
}

export function SidebarDrawer({ opened, onClose, size, membersOf }: SidebarDrawerProps) {
  return (
    <Drawer opened={opened} onClose={onClose} size={size} title={<Logo size={24} />} padding="sm">
      <Sidebar onNavigate={onClose} membersOf={membersOf} />
    </Drawer>
  );
}
